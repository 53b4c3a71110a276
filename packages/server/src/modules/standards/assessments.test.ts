import { type StdAssessment, type StdTree, type StdTreeRow, stdTreeSchema } from '@portal/shared';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../test/agent.js';
import { useTestApp } from '../../../test/app.js';
import { expectExactly } from '../../../test/contract.js';
import {
  addPolicy,
  agentsOf,
  assessmentInput,
  auditOf,
  importFramework,
  KIT_ELEMENTS,
  reqIds,
  type StandardsSetup,
  saveElement,
  standardsProject,
  standardsSetup,
  standardsSnapshot,
} from '../../../test/standards-kit.js';
import { stdLeads, stdReqAssessments } from '../../db/schema/index.js';

/** Assessments: what the /create wizard makes, the list with counts, the tree with roll-ups and its filters. */
describe('standards assessments', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  const noCounts = { compliant: 0, partially_compliant: 0, non_compliant: 0, not_applicable: 0, not_assessed: 0 };

  async function tree(agent: Agent, s: StandardsSetup, query = ''): Promise<StdTree> {
    const answer = await agent.get(`${s.base}/assessments/${s.assessmentId}/tree${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    // Serialized as built (lib/built-json.ts): exactly its contract.
    expectExactly(stdTreeSchema, answer.json());
    return answer.json() as StdTree;
  }
  const byRef = (t: StdTree) => new Map<string, StdTreeRow>(t.rows.map((row) => [row.ref_id, row]));
  const refs = (t: StdTree) => t.rows.map((row) => row.ref_id);

  it('creates one row per element; not-applicable chapters are done with the reason; owners by chapter, audited', async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const { framework, nodes } = await importFramework(db(), admin, s.base);
    // A standards admin who is not a project admin creates it.
    const stdAdmin = await ctx.signedIn(s.people.stdAdmin);
    const answer = await stdAdmin.post(
      `${s.base}/assessments`,
      assessmentInput(framework.id, {
        name: '  Mock survey spring  ',
        kind: 'mock',
        scope_note: 'Main campus only',
        survey_window_start: '2027-03-01',
        survey_window_end: '2027-06-30',
        not_applicable: [{ node_id: nodes.OB, reason: 'We do not deliver babies.' }],
        owners: [
          { node_id: nodes.GOV, user_id: s.people.owner.id },
          { node_id: nodes['IC.1'], user_id: s.people.lead.id },
        ],
      }),
    );
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: number };
    const rows = await db()
      .select()
      .from(stdReqAssessments)
      .where(eq(stdReqAssessments.assessmentId, id))
      .orderBy(asc(stdReqAssessments.nodeId));
    const reqs = await reqIds(db(), id);
    expect(Object.keys(reqs).sort()).toEqual([...KIT_ELEMENTS].sort());
    expect(rows).toHaveLength(6);
    const rowOf = (ref: string) => rows.find((r) => r.id === reqs[ref])!;
    for (const ref of ['GOV.1.1', 'GOV.1.2', 'GOV.2.1']) {
      expect(rowOf(ref), ref).toMatchObject({
        result: 'not_assessed',
        status: 'to_do',
        ownerId: s.people.owner.id,
        naJustification: '',
        version: 0,
        projectId: s.project.id,
      });
    }
    for (const ref of ['IC.1.1', 'IC.1.2']) expect(rowOf(ref).ownerId, ref).toBe(s.people.lead.id);
    expect(rowOf('OB.1')).toMatchObject({
      result: 'not_applicable',
      status: 'done',
      naJustification: 'We do not deliver babies.',
      ownerId: null,
    });
    // The owner given to a chapter is recorded as its lead.
    const leads = await db().select().from(stdLeads).where(eq(stdLeads.assessmentId, id));
    expect(leads.map((l) => [l.nodeId, l.userId]).sort((a, b) => a[0]! - b[0]!)).toEqual(
      [
        [nodes.GOV, s.people.owner.id],
        [nodes['IC.1'], s.people.lead.id],
      ].sort((a, b) => a[0]! - b[0]!),
    );
    const [event] = await auditOf(db(), s.project.id, 'standards.assessment_created');
    expect(event).toMatchObject({
      actorUserId: s.people.stdAdmin.id,
      subjectType: 'std_assessment',
      subjectId: String(id),
      data: {
        framework: 'STATE-QS 2026',
        name: 'Mock survey spring',
        kind: 'mock',
        elements: 6,
        not_applicable: [nodes.OB],
        owners: [
          { node_id: nodes.GOV, user_id: s.people.owner.id },
          { node_id: nodes['IC.1'], user_id: s.people.lead.id },
        ],
      },
    });

    const listed = await (await ctx.signedIn(s.people.viewer)).get(`${s.base}/assessments`);
    expect(listed.statusCode).toBe(200);
    const [assessment] = listed.json().assessments as StdAssessment[];
    expect(assessment).toMatchObject({
      id,
      name: 'Mock survey spring',
      kind: 'mock',
      scope_note: 'Main campus only',
      survey_window_start: '2027-03-01',
      survey_window_end: '2027-06-30',
      framework: { id: framework.id, code: 'STATE-QS', edition: '2026', text_policy: 'tenant_text' },
      counts: { ...noCounts, not_applicable: 1, not_assessed: 5 },
      score: null,
      overdue: 0,
    });
    // Another project lists none of it.
    const outsider = await ctx.signedIn(s.people.outsider);
    expect((await outsider.get(`${s.otherBase}/assessments`)).json().assessments).toEqual([]);
  });

  it('refuses unknown parts and owners without an owning standards role with field errors; nothing is stored', async () => {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const { framework, nodes } = await importFramework(db(), admin, s.base);
    const other = await importFramework(db(), admin, s.base, { code: 'STATE-XX' });
    const before = await standardsSnapshot(db());
    const answer = await admin.post(
      `${s.base}/assessments`,
      assessmentInput(framework.id, {
        not_applicable: [
          { node_id: nodes.OB, reason: 'No obstetrics.' },
          { node_id: other.nodes.OB, reason: 'Another framework.' },
        ],
        owners: [
          { node_id: nodes.GOV, user_id: s.people.owner.id },
          { node_id: 999_999, user_id: s.people.owner.id },
          { node_id: nodes.IC, user_id: s.people.noRole.id },
          { node_id: nodes.IC, user_id: s.people.viewer.id },
          { node_id: nodes.IC, user_id: s.people.assessor.id },
          { node_id: nodes.IC, user_id: s.people.outsider.id },
          { node_id: nodes.IC, user_id: s.people.policyAdmin.id },
        ],
      }),
    );
    expect(answer.statusCode, answer.body).toBe(400);
    const owning = ['Choose a person with a standards role that may own elements.'];
    expect(answer.json().errors).toEqual({
      'not_applicable.1.node_id': ['Choose a part of this framework.'],
      'owners.1.node_id': ['Choose a part of this framework.'],
      'owners.2.user_id': owning,
      'owners.3.user_id': owning,
      'owners.4.user_id': owning,
      'owners.5.user_id': owning,
      'owners.6.user_id': owning,
    });
    expect(await standardsSnapshot(db())).toEqual(before);

    const invalid = await admin.post(
      `${s.base}/assessments`,
      assessmentInput(framework.id, {
        name: ' ',
        kind: 'audit',
        survey_window_start: '2027-06-30',
        survey_window_end: '2027-02-30',
        not_applicable: [{ node_id: nodes.OB, reason: '' }],
      }),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toMatchObject({
      name: ['Enter a name for the assessment.'],
      kind: ['Choose the kind of assessment.'],
      survey_window_end: ['Enter a date like 2027-06-30.'],
      'not_applicable.0.reason': ['Say why this part does not apply.'],
    });
    const backwards = await admin.post(
      `${s.base}/assessments`,
      assessmentInput(framework.id, { survey_window_start: '2027-06-30', survey_window_end: '2027-03-01' }),
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors.survey_window_end).toEqual(['The window ends before it starts.']);
    const missing = await admin.post(`${s.base}/assessments`, assessmentInput(999_999));
    expect(missing.statusCode).toBe(404);
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('lets only standards admins create assessments (the chapter lead gets 403)', async () => {
    const s = await standardsSetup(ctx);
    const agents = await agentsOf(ctx, s, ['lead', 'owner', 'contributor', 'assessor']);
    const before = await standardsSnapshot(db());
    for (const [who, agent] of Object.entries(agents)) {
      const answer = await agent.post(`${s.base}/assessments`, assessmentInput(s.framework.id));
      expect(answer.statusCode, who).toBe(403);
      expect(answer.json().message).toBe('Your standards role does not allow this.');
    }
    expect(await standardsSnapshot(db())).toEqual(before);
    const superadmin = await ctx.signedIn(s.people.superadmin);
    expect((await superadmin.post(`${s.base}/assessments`, assessmentInput(s.framework.id))).statusCode).toBe(201);
  });

  it('rolls results up the tree: non-compliant wins, then partial, compliant, incomplete, not applicable; scores', async () => {
    const s = await standardsSetup(ctx);
    const start = await tree(s.admin, s);
    expect(start.matches).toBe(6);
    expect(start.abilities).toEqual({ bulk: true });
    expect(refs(start)).toEqual([
      'GOV',
      'GOV.1',
      'GOV.1.1',
      'GOV.1.2',
      'GOV.2',
      'GOV.2.1',
      'IC',
      'IC.1',
      'IC.1.1',
      'IC.1.2',
      'OB',
      'OB.1',
    ]);
    for (const row of start.rows) expect(row.rollup, row.ref_id).toBe('not_assessed');
    expect(byRef(start).get('GOV')).toMatchObject({
      parent_id: null,
      depth: 0,
      node_type: 'chapter',
      req: null,
      counts: { ...noCounts, not_assessed: 3 },
      score: null,
    });
    expect(byRef(start).get('GOV.1.1')).toMatchObject({
      parent_id: s.nodes['GOV.1'],
      depth: 2,
      req: {
        id: s.reqs['GOV.1.1'],
        result: 'not_assessed',
        status: 'to_do',
        owner: { id: s.people.owner.id, name: 'Owen Owner' },
        due_date: null,
        overdue: false,
        links: { policy: 0, measure: 0, cr_program: 0 },
        comments: 0,
      },
    });

    const set = async (ref: keyof typeof s.reqs, result: string, extra: Record<string, unknown> = {}) => {
      const saved = await saveElement(s.admin, s.base, s.reqs[ref], { result: result as never, ...extra });
      expect(saved.statusCode, `${ref}: ${saved.body}`).toBe(200);
    };
    await set('GOV.1.1', 'compliant');
    await set('GOV.1.2', 'compliant');
    let t = byRef(await tree(s.admin, s));
    expect(t.get('GOV.1')!.rollup).toBe('compliant');
    expect(t.get('GOV')!.rollup).toBe('incomplete');
    expect(t.get('GOV')!.counts).toEqual({ ...noCounts, compliant: 2, not_assessed: 1 });
    expect(t.get('GOV')!.score).toBe(1);

    await set('GOV.2.1', 'partially_compliant');
    await set('IC.1.1', 'non_compliant');
    await set('IC.1.2', 'compliant');
    await set('OB.1', 'not_applicable', { na_justification: 'No obstetric service.' });
    const full = await tree(s.admin, s);
    t = byRef(full);
    expect(t.get('GOV.2')!.rollup).toBe('partially_compliant');
    expect(t.get('GOV')!.rollup).toBe('partially_compliant');
    expect(t.get('IC.1')!.rollup).toBe('non_compliant');
    expect(t.get('IC')!.rollup).toBe('non_compliant');
    expect(t.get('IC')!.score).toBe(0.5);
    expect(t.get('OB')!.rollup).toBe('not_applicable');
    expect(t.get('OB.1')!.rollup).toBe('not_applicable');
    expect(t.get('IC.1.1')!.rollup).toBe('non_compliant');
    expect(full.assessment.counts).toEqual({
      compliant: 3,
      partially_compliant: 1,
      non_compliant: 1,
      not_applicable: 1,
      not_assessed: 0,
    });
    expect(full.assessment.score).toBe(0.6);

    await set('GOV.2.1', 'compliant');
    const after = await tree(s.admin, s);
    expect(byRef(after).get('GOV')!.rollup).toBe('compliant');
    expect(byRef(after).get('GOV')!.score).toBe(1);
    expect(after.assessment.score).toBe(0.8);
    // The list shows the same figures.
    const [listed] = (await s.admin.get(`${s.base}/assessments`)).json().assessments as StdAssessment[];
    expect(listed!.counts).toEqual(after.assessment.counts);
    expect(listed!.score).toBe(0.8);
    // Only those who assign may bulk-edit from the tree.
    const owner = await ctx.signedIn(s.people.owner);
    expect((await tree(owner, s)).abilities).toEqual({ bulk: false });
    const lead = await ctx.signedIn(s.people.lead);
    expect((await tree(lead, s)).abilities).toEqual({ bulk: true });
  });

  it('filters the tree (mine, gaps, unassessed, no evidence, overdue, search) keeping the ancestors', async () => {
    const s = await standardsSetup(ctx);
    const admin = s.admin;
    const save = async (ref: keyof typeof s.reqs, changes: Record<string, unknown>) => {
      const saved = await saveElement(admin, s.base, s.reqs[ref], changes);
      expect(saved.statusCode, `${ref}: ${saved.body}`).toBe(200);
    };
    await save('GOV.1.1', { result: 'compliant', status: 'done' });
    await save('GOV.1.2', { result: 'non_compliant', status: 'in_progress', due_date: '2020-01-15' });
    await save('GOV.2.1', { result: 'partially_compliant', status: 'done', due_date: '2020-01-15' });
    await save('IC.1.1', { due_date: '2099-12-31' });
    await save('OB.1', { result: 'not_applicable', na_justification: 'No obstetric service.' });
    const wording = await admin.put(`${s.base}/req-assessments/${s.reqs['IC.1.2']}/wording`, {
      wording: 'Gel dispensers at the foot of each bed.',
      guidance: '',
      public_url: '',
    });
    expect(wording.statusCode, wording.body).toBe(200);
    const policy = await addPolicy(db(), s.project.id, { title: 'Board governance', number: '1.1' });
    const link = await admin.post(`${s.base}/links`, {
      node_id: s.nodes['GOV.1.1'],
      target_type: 'policy',
      target_id: policy.id,
      note: '',
    });
    expect(link.statusCode, link.body).toBe(201);
    expect(
      (await admin.post(`${s.base}/req-assessments/${s.reqs['GOV.1.2']}/comments`, { body: 'Minutes missing.' }))
        .statusCode,
    ).toBe(200);

    const cases: [string, Agent, string[], number][] = [
      ['?filter=mine', await ctx.signedIn(s.people.owner), ['GOV', 'GOV.1', 'GOV.1.1', 'GOV.1.2'], 2],
      ['?filter=gaps', admin, ['GOV', 'GOV.1', 'GOV.1.2', 'GOV.2', 'GOV.2.1'], 2],
      ['?filter=unassessed', admin, ['IC', 'IC.1', 'IC.1.1', 'IC.1.2'], 2],
      [
        '?filter=no_evidence',
        admin,
        ['GOV', 'GOV.1', 'GOV.1.2', 'GOV.2', 'GOV.2.1', 'IC', 'IC.1', 'IC.1.1', 'IC.1.2'],
        4,
      ],
      ['?filter=overdue', admin, ['GOV', 'GOV.1', 'GOV.1.2'], 1],
      ['?search=dispensers', admin, ['IC', 'IC.1', 'IC.1.2'], 1],
      ['?search=gov.2', admin, ['GOV', 'GOV.2', 'GOV.2.1'], 1],
      ['?search=BOARD', admin, ['GOV', 'GOV.1', 'GOV.1.1'], 1],
      ['?filter=gaps&search=minutes', admin, ['GOV', 'GOV.1', 'GOV.1.2'], 1],
      ['?filter=mine', admin, [], 0],
      ['?search=nothing-like-this', admin, [], 0],
    ];
    for (const [query, agent, expected, matches] of cases) {
      const answer = await tree(agent, s, query);
      expect(refs(answer), query).toEqual(expected);
      expect(answer.matches, query).toBe(matches);
    }
    // Kept ancestors carry the roll-up of everything below them, not of the filtered rows only.
    const gaps = byRef(await tree(admin, s, '?filter=overdue'));
    expect(gaps.get('GOV')!.rollup).toBe('non_compliant');
    expect(gaps.get('GOV')!.counts).toEqual({ ...noCounts, compliant: 1, partially_compliant: 1, non_compliant: 1 });
    expect(gaps.get('GOV.1.2')!.req).toMatchObject({
      result: 'non_compliant',
      status: 'in_progress',
      due_date: '2020-01-15',
      overdue: true,
      comments: 1,
    });
    const all = byRef(await tree(admin, s));
    expect(all.get('GOV.1.1')!.req!.links).toEqual({ policy: 1, measure: 0, cr_program: 0 });
    expect(all.get('GOV.2.1')!.req!.overdue).toBe(false); // done, so not overdue
    expect((await tree(admin, s)).assessment.overdue).toBe(1);

    const bad = await admin.get(`${s.base}/assessments/${s.assessmentId}/tree?filter=late`);
    expect(bad.statusCode).toBe(400);
    const long = await admin.get(`${s.base}/assessments/${s.assessmentId}/tree?search=${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.search).toEqual(['Search for at most 100 characters.']);
  });
});
