import type { StdAssessment, StdCrosswalkList, StdFramework } from '@portal/shared';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../test/agent.js';
import { useTestApp } from '../../../test/app.js';
import {
  addLead,
  addPolicy,
  agentsOf,
  auditOf,
  createAssessment,
  expectGuards,
  expectSwitchedOff,
  type GuardedCall,
  importFramework,
  readElement,
  reqIds,
  saveElement,
  standardsProject,
  standardsSnapshot,
} from '../../../test/standards-kit.js';
import {
  stdAssessments,
  stdLeads,
  stdMappings,
  stdNodes,
  stdReqAssessments,
  traceLinks,
} from '../../db/schema/index.js';
import { NO_CROSSWALK, SAME_FRAMEWORK } from './crosswalk.service.js';

/**
 * Crosswalks between frameworks and editions, and the edition upgrade carrying an assessment's results through them
 * (docs/standards.md "Crosswalks and edition upgrades"; DOMAIN.md 3.5).
 */
describe('standards crosswalks and edition upgrades', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  /**
   * Edition 2026 of the kit's framework: GOV.1.1 unchanged; GOV.1.2 and GOV.2.1 merged into GOV.2.1; a new GOV.3.1;
   * the IC chapter renamed IPC (IC.1.1 -> IPC.1.1) with IC.1.2 split into IPC.1.2a and IPC.1.2b; OB.1 retired.
   */
  const EDITION_2026 = [
    'ref_id,parent_ref_id,type,title,text',
    'GOV,,chapter,Governance,',
    'GOV.1,GOV,standard,Governing body,',
    'GOV.1.1,GOV.1,element,Board meets quarterly,The board meets at least once a quarter.',
    'GOV.2,GOV,standard,Board records and quality plan,',
    'GOV.2.1,GOV.2,element,Minutes kept and QAPI plan approved,',
    'GOV.3,GOV,standard,Board education,',
    'GOV.3.1,GOV.3,element,Board ethics training,',
    'IPC,,chapter,Infection prevention and control,',
    'IPC.1,IPC,standard,Hand hygiene,',
    'IPC.1.1,IPC.1,element,Hand hygiene audits,',
    'IPC.1.2a,IPC.1,element,Alcohol rub at every bed,',
    'IPC.1.2b,IPC.1,element,Alcohol rub at every entrance,',
  ].join('\n');

  /** The crosswalk 2025 -> 2026 (source is the 2025 edition). */
  const CROSSWALK = [
    'source_ref_id,target_ref_id,relationship,rationale',
    'GOV.1.1,GOV.1.1,equal,Unchanged',
    'GOV.1.2,GOV.2.1,subset,Merged into one element',
    'GOV.2.1,GOV.2.1,subset,Merged into one element',
    'IC,IPC,equal,Chapter renamed',
    'IC.1.1,IPC.1.1,equal,Renamed',
    'IC.1.2,IPC.1.2a,superset,Split in two',
    'IC.1.2,IPC.1.2b,superset,Split in two',
    'OB.1,IPC.1.1,intersect,Staffing touches infection control',
    'OB.1,GOV.3.1,not_related,',
  ].join('\n');

  /**
   * The project with the kit's framework as edition 2025, a mock survey of it (Owen owns GOV.1, Cora GOV.2, Leo
   * leads IC) and the 2026 edition imported.
   */
  async function editions() {
    const s = await standardsProject(db());
    const admin = await ctx.signedIn(s.people.admin);
    const old = await importFramework(db(), admin, s.base, { edition: '2025' });
    const next = await importFramework(db(), admin, s.base, { edition: '2026', csv: EDITION_2026 });
    const assessment = await createAssessment(db(), admin, s.base, old.framework.id, {
      name: 'Mock survey 2025',
      kind: 'mock',
      scope_note: 'Main campus',
      survey_window_start: '2026-03-01',
      survey_window_end: '2026-06-30',
      owners: [
        { node_id: old.nodes['GOV.1']!, user_id: s.people.owner.id },
        { node_id: old.nodes['GOV.2']!, user_id: s.people.contributor.id },
      ],
    });
    await addLead(db(), s.project.id, assessment.id, old.nodes.IC!, s.people.lead.id);
    return { ...s, admin, old, next, assessment };
  }
  type Editions = Awaited<ReturnType<typeof editions>>;

  const crosswalkBody = (e: Editions, csv = CROSSWALK) => ({
    source_framework_id: e.old.framework.id,
    target_framework_id: e.next.framework.id,
    csv,
  });

  async function importCrosswalk(e: Editions, agent: Agent = e.admin, csv = CROSSWALK) {
    const answer = await agent.post(`${e.base}/crosswalks/import`, crosswalkBody(e, csv));
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { mappings: number };
  }

  async function sets(agent: Agent, base: string): Promise<StdCrosswalkList['sets']> {
    const answer = await agent.get(`${base}/crosswalks`);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as StdCrosswalkList).sets;
  }

  /** The project's own mappings between the two editions, as `source>target relationship` by ref_id. */
  async function storedPairs(e: Editions): Promise<string[]> {
    const rows = await db()
      .select({ source: stdMappings.sourceNodeId, target: stdMappings.targetNodeId, rel: stdMappings.relationship })
      .from(stdMappings)
      .where(eq(stdMappings.projectId, e.project.id));
    const refOf = new Map(
      [...Object.entries(e.old.nodes), ...Object.entries(e.next.nodes)].map(([ref, id]) => [id, ref]),
    );
    return rows.map((row) => `${refOf.get(row.source)}>${refOf.get(row.target)} ${row.rel}`).sort();
  }

  async function reqRows(assessmentId: number) {
    return db()
      .select()
      .from(stdReqAssessments)
      .where(eq(stdReqAssessments.assessmentId, assessmentId))
      .orderBy(asc(stdReqAssessments.id));
  }

  it('guards every call: 401, 403 without a role, 403 for the viewer on changes, 404 for another project, 419', async () => {
    const e = await editions();
    await importCrosswalk(e);
    const calls: GuardedCall[] = [
      { method: 'GET', path: '/crosswalks', viewer: true, namesRow: false },
      { method: 'POST', path: '/crosswalks/import', body: crosswalkBody(e), viewer: false, namesRow: true },
      {
        method: 'POST',
        path: `/assessments/${e.assessment.id}/upgrade`,
        body: { framework_id: e.next.framework.id, name: 'Mock survey 2026' },
        viewer: false,
        namesRow: true,
      },
    ];
    await expectGuards(ctx, e, calls);
    // Chapter leads, owners and mock assessors may not change crosswalks nor upgrade either.
    const others = await agentsOf(ctx, e, ['lead', 'owner', 'assessor'] as const);
    const before = await standardsSnapshot(db());
    for (const [who, agent] of Object.entries(others)) {
      for (const call of calls.filter((c) => c.method === 'POST')) {
        const answer = await agent.post(`${e.base}${call.path}`, call.body as object);
        expect(answer.statusCode, `${call.path} as ${who}: ${answer.body}`).toBe(403);
      }
    }
    expect(await standardsSnapshot(db())).toEqual(before);
    await expectSwitchedOff(ctx, e, calls);
  });

  it('imports a crosswalk between two editions: stored for the project, listed, audited', async () => {
    const e = await editions();
    const stdAdmin = await ctx.signedIn(e.people.stdAdmin);
    expect(await sets(stdAdmin, e.base)).toEqual([]);
    // A byte order mark, spaces and capitals in the header and the relationship are read.
    const csv = `\uFEFFSource ref_id,Target-Ref_ID,Relationship,Rationale\n${CROSSWALK.split('\n').slice(1).join('\n').replace('equal,Unchanged', ' EQUAL ,Unchanged')}\n`;
    expect(await importCrosswalk(e, stdAdmin, csv)).toEqual({ mappings: 9 });
    expect(await storedPairs(e)).toEqual(
      [
        'GOV.1.1>GOV.1.1 equal',
        'GOV.1.2>GOV.2.1 subset',
        'GOV.2.1>GOV.2.1 subset',
        'IC>IPC equal',
        'IC.1.1>IPC.1.1 equal',
        'IC.1.2>IPC.1.2a superset',
        'IC.1.2>IPC.1.2b superset',
        'OB.1>IPC.1.1 intersect',
        'OB.1>GOV.3.1 not_related',
      ].sort(),
    );
    const [rationale] = await db()
      .select({ rationale: stdMappings.rationale })
      .from(stdMappings)
      .where(
        and(
          eq(stdMappings.sourceNodeId, e.old.nodes['IC.1.2']!),
          eq(stdMappings.targetNodeId, e.next.nodes['IPC.1.2a']!),
        ),
      );
    expect(rationale!.rationale).toBe('Split in two');

    // Every standards role reads the sets.
    const viewer = await ctx.signedIn(e.people.viewer);
    expect(await sets(viewer, e.base)).toEqual([
      {
        source: { id: e.old.framework.id, code: 'STATE-QS', name: 'State quality standards', edition: '2025' },
        target: { id: e.next.framework.id, code: 'STATE-QS', name: 'State quality standards', edition: '2026' },
        mappings: 9,
        built_in: false,
      },
    ]);

    const [event] = await auditOf(db(), e.project.id, 'standards.crosswalk_imported');
    expect(event).toMatchObject({
      actorUserId: e.people.stdAdmin.id,
      subjectType: 'std_framework',
      subjectId: String(e.old.framework.id),
      data: {
        source: 'STATE-QS 2025',
        target: 'STATE-QS 2026',
        target_framework_id: e.next.framework.id,
        mappings: 9,
        replaced: 0,
        relationships: { equal: 3, subset: 2, superset: 2, intersect: 1, not_related: 1 },
      },
    });

    // The element panel of the 2025 assessment shows the crosswalk to 2026.
    const panel = await readElement(e.admin, e.base, e.assessment.reqs['IC.1.2']!);
    expect(panel.crosswalk).toEqual(
      expect.arrayContaining([
        {
          framework: 'State quality standards 2026',
          ref_id: 'IPC.1.2a',
          title: 'Alcohol rub at every bed',
          relationship: 'superset',
        },
        {
          framework: 'State quality standards 2026',
          ref_id: 'IPC.1.2b',
          title: 'Alcohol rub at every entrance',
          relationship: 'superset',
        },
      ]),
    );
  });

  it('refuses a file with problems, naming the rows, and changes nothing', async () => {
    const e = await editions();
    await importCrosswalk(e);
    const before = await standardsSnapshot(db());
    const refused = async (csv: string, status = 400) => {
      const answer = await e.admin.post(`${e.base}/crosswalks/import`, crosswalkBody(e, csv));
      expect(answer.statusCode, answer.body).toBe(status);
      return answer.json() as { message: string; errors: Record<string, string[]> };
    };
    const problems = await refused(
      [
        'source_ref_id,target_ref_id,relationship',
        'GOV.1.1,GOV.1.1,equal',
        'GOV.9,GOV.1.1,equal',
        'GOV.1.2,IC.1.1,subset',
        'GOV.2.1,GOV.2.1,same',
        'GOV.1.1,GOV.1.1,subset',
        ',GOV.2.1,equal',
        'IC.1.1,IPC.1.1,equal',
      ].join('\n'),
    );
    expect(problems.errors.csv).toEqual([
      'A source_ref_id is not in STATE-QS 2025 (rows 3).',
      'A target_ref_id is not in STATE-QS 2026 (rows 4).',
      'A relationship is not one of equal, subset, superset, intersect, not_related (rows 5).',
      'A pair of source_ref_id and target_ref_id appears twice (rows 6).',
      'A row has no source_ref_id or no target_ref_id (rows 7).',
    ]);
    expect(problems.message).toBe('A source_ref_id is not in STATE-QS 2025 (rows 3).');

    expect((await refused('source,target\nGOV.1.1,GOV.1.1')).errors.csv).toEqual([
      'The header needs the columns source_ref_id, target_ref_id and relationship (missing: source_ref_id, target_ref_id, relationship).',
    ]);
    expect((await refused('source_ref_id,target_ref_id,relationship\n')).message).toBe(
      'The file has a header but no rows.',
    );
    const tooMany = ['source_ref_id,target_ref_id,relationship', ...Array(5001).fill('GOV.1.1,GOV.1.1,equal')];
    expect((await refused(tooMany.join('\n'))).message).toBe('A crosswalk has at most 5,000 rows.');
    expect(
      (await refused(`source_ref_id,target_ref_id,relationship,rationale\nGOV.1.1,GOV.1.1,equal,${'x'.repeat(1001)}`))
        .message,
    ).toBe('A rationale is longer than 1000 characters (rows 2).');
    // The same framework on both sides, a file over 1 MB, an unknown framework.
    const same = await e.admin.post(`${e.base}/crosswalks/import`, {
      ...crosswalkBody(e),
      target_framework_id: e.old.framework.id,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().errors.target_framework_id).toEqual(['Choose two different frameworks or editions.']);
    const big = await e.admin.post(`${e.base}/crosswalks/import`, crosswalkBody(e, 'x'.repeat(1_000_001)));
    expect(big.statusCode).toBe(400);
    expect(big.json().errors.csv).toEqual(['The file is larger than 1 MB.']);
    const unknown = await e.admin.post(`${e.base}/crosswalks/import`, {
      ...crosswalkBody(e),
      source_framework_id: 999999,
    });
    expect(unknown.statusCode).toBe(404);
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('replaces the project’s own mappings between the two frameworks on re-import, either way round', async () => {
    const e = await editions();
    await importCrosswalk(e);
    expect(
      await importCrosswalk(
        e,
        e.admin,
        'source_ref_id,target_ref_id,relationship\nGOV.1.1,GOV.1.1,equal\nIC.1.1,IPC.1.1,intersect\n',
      ),
    ).toEqual({ mappings: 2 });
    expect(await storedPairs(e)).toEqual(['GOV.1.1>GOV.1.1 equal', 'IC.1.1>IPC.1.1 intersect']);
    const events = await auditOf(db(), e.project.id, 'standards.crosswalk_imported');
    expect(events.at(-1)!.data).toMatchObject({ mappings: 2, replaced: 9 });

    // From 2026 to 2025: the same pair of frameworks, so it replaces them too.
    const reverse = await e.admin.post(`${e.base}/crosswalks/import`, {
      source_framework_id: e.next.framework.id,
      target_framework_id: e.old.framework.id,
      csv: 'source_ref_id,target_ref_id,relationship\nGOV.2.1,GOV.2.1,superset\n',
    });
    expect(reverse.statusCode, reverse.body).toBe(200);
    expect(await storedPairs(e)).toEqual(['GOV.2.1>GOV.2.1 superset']);
    expect((await sets(e.admin, e.base)).map((set) => [set.source.edition, set.target.edition, set.mappings])).toEqual([
      ['2026', '2025', 1],
    ]);

    // A third framework's crosswalk is another set: not replaced.
    const local = await importFramework(db(), e.admin, e.base, { code: 'LOCAL', name: 'Local policies' });
    const third = await e.admin.post(`${e.base}/crosswalks/import`, {
      source_framework_id: local.framework.id,
      target_framework_id: e.old.framework.id,
      csv: 'source_ref_id,target_ref_id,relationship\nGOV.1.1,GOV.1.1,equal\n',
    });
    expect(third.statusCode, third.body).toBe(200);
    await importCrosswalk(e, e.admin, 'source_ref_id,target_ref_id,relationship\nOB.1,GOV.3.1,not_related\n');
    expect((await sets(e.admin, e.base)).map((set) => [set.source.code, set.target.edition, set.mappings])).toEqual([
      ['LOCAL', '2025', 1],
      ['STATE-QS', '2026', 1],
    ]);
  });

  it('keeps crosswalks inside the project; a pair the built-in crosswalk holds cannot be imported again', async () => {
    const e = await editions();
    await importCrosswalk(e);
    const outsider = await ctx.signedIn(e.people.outsider);
    // The other project sees none of them, and cannot use this project's frameworks.
    expect(await sets(outsider, e.otherBase)).toEqual([]);
    const theirs = await importFramework(db(), outsider, e.otherBase, { code: 'SOUTH', edition: '2025' });
    const theirs26 = await importFramework(db(), outsider, e.otherBase, {
      code: 'SOUTH',
      edition: '2026',
      csv: EDITION_2026,
    });
    const before = await standardsSnapshot(db());
    for (const body of [
      crosswalkBody(e),
      { ...crosswalkBody(e), source_framework_id: theirs.framework.id },
      { ...crosswalkBody(e), target_framework_id: theirs26.framework.id },
    ]) {
      const answer = await outsider.post(`${e.otherBase}/crosswalks/import`, body);
      expect(answer.statusCode, answer.body).toBe(404);
    }
    // Nor this project theirs.
    const mine = await e.admin.post(`${e.base}/crosswalks/import`, {
      ...crosswalkBody(e),
      target_framework_id: theirs26.framework.id,
    });
    expect(mine.statusCode).toBe(404);
    expect(await standardsSnapshot(db())).toEqual(before);

    // Their own crosswalk is theirs only.
    const made = await outsider.post(`${e.otherBase}/crosswalks/import`, {
      source_framework_id: theirs.framework.id,
      target_framework_id: theirs26.framework.id,
      csv: 'source_ref_id,target_ref_id,relationship\nGOV.1.1,GOV.1.1,equal\n',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect((await sets(outsider, e.otherBase)).map((set) => set.mappings)).toEqual([1]);
    expect((await sets(e.admin, e.base)).map((set) => set.source.id)).toEqual([e.old.framework.id]);

    // A built-in mapping (no project) shows as built in; its pair cannot be stored a second time.
    const cms = ((await e.admin.get(`${e.base}/frameworks`)).json().frameworks as StdFramework[]).find(
      (f) => f.built_in,
    )!;
    const [cmsNode] = await db()
      .select()
      .from(stdNodes)
      .where(and(eq(stdNodes.frameworkId, cms.id), eq(stdNodes.assessable, true)))
      .limit(1);
    await db().insert(stdMappings).values({
      projectId: null,
      sourceNodeId: cmsNode!.id,
      targetNodeId: e.old.nodes['GOV.1.1']!,
      relationship: 'subset',
    });
    expect((await sets(e.admin, e.base)).find((set) => set.built_in)).toEqual({
      source: { id: cms.id, code: cms.code, name: cms.name, edition: cms.edition },
      target: { id: e.old.framework.id, code: 'STATE-QS', name: 'State quality standards', edition: '2025' },
      mappings: 1,
      built_in: true,
    });
    const clash = await e.admin.post(`${e.base}/crosswalks/import`, {
      source_framework_id: cms.id,
      target_framework_id: e.old.framework.id,
      csv: `source_ref_id,target_ref_id,relationship\n"${cmsNode!.refId}",GOV.1.2,equal\n"${cmsNode!.refId}",GOV.1.1,equal\n`,
    });
    expect(clash.statusCode, clash.body).toBe(409);
    expect(clash.json().errors.csv[0]).toContain('(rows 3)');
    const builtIn = await db().select().from(stdMappings).where(isNull(stdMappings.projectId));
    expect(builtIn).toHaveLength(1);
  });

  it('upgrades an assessment to the next edition carrying results through the crosswalk', async () => {
    const e = await editions();
    const { reqs } = e.assessment;
    const save = async (ref: string, changes: Record<string, unknown>) => {
      const answer = await saveElement(e.admin, e.base, reqs[ref]!, changes);
      expect(answer.statusCode, answer.body).toBe(200);
    };
    await save('GOV.1.1', {
      result: 'compliant',
      status: 'done',
      due_date: '2026-06-30',
      observation: 'Minutes of four meetings seen.',
    });
    await save('GOV.1.2', { result: 'compliant', status: 'done', due_date: '2026-09-01' });
    await save('GOV.2.1', {
      result: 'partially_compliant',
      status: 'in_progress',
      due_date: '2026-10-01',
      observation: 'QAPI plan approved late.',
    });
    await save('IC.1.1', { result: 'partially_compliant', status: 'in_progress', owner_id: e.people.owner2.id });
    await save('IC.1.2', {
      result: 'non_compliant',
      status: 'in_progress',
      due_date: '2026-12-01',
      observation: 'Two wards without rub.',
    });
    await save('OB.1', { result: 'non_compliant', status: 'done', owner_id: e.people.owner.id });

    const stdAdmin = await ctx.signedIn(e.people.stdAdmin);
    const upgrade = (body: Record<string, unknown>, agent: Agent = stdAdmin, id = e.assessment.id) =>
      agent.post(`${e.base}/assessments/${id}/upgrade`, body);

    // Without a crosswalk: refused, nothing made.
    const before = await standardsSnapshot(db());
    const none = await upgrade({ framework_id: e.next.framework.id, name: 'Mock survey 2026' });
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json()).toMatchObject({ message: NO_CROSSWALK, errors: { framework_id: [NO_CROSSWALK] } });
    const same = await upgrade({ framework_id: e.old.framework.id, name: 'Again' });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(SAME_FRAMEWORK);
    const unnamed = await upgrade({ framework_id: e.next.framework.id, name: '  ' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().errors.name).toEqual(['Enter a name for the new assessment.']);
    expect((await upgrade({ framework_id: e.next.framework.id, name: 'X' }, stdAdmin, 999999)).statusCode).toBe(404);
    expect(await standardsSnapshot(db())).toEqual(before);

    await importCrosswalk(e);
    // The closed loop follows the results: a policy linked to the split element is linked to both new ones.
    const policy = await addPolicy(db(), e.project.id, { title: 'Hand hygiene', number: '3.1' });
    const linked = await e.admin.post(`${e.base}/links`, {
      node_id: e.old.nodes['IC.1.2'],
      target_type: 'policy',
      target_id: policy.id,
      note: 'Section 2',
    });
    expect(linked.statusCode, linked.body).toBe(201);
    const oldRows = await reqRows(e.assessment.id);
    const oldLeads = await db().select().from(stdLeads).where(eq(stdLeads.assessmentId, e.assessment.id));
    const [oldAssessment] = await db().select().from(stdAssessments).where(eq(stdAssessments.id, e.assessment.id));

    const answer = await upgrade({ framework_id: e.next.framework.id, name: '  Mock survey 2026 ' });
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: number };

    // Same project, kind, scope and window; upgraded from the old one.
    const [made] = await db().select().from(stdAssessments).where(eq(stdAssessments.id, id));
    expect(made).toMatchObject({
      projectId: e.project.id,
      frameworkId: e.next.framework.id,
      name: 'Mock survey 2026',
      kind: 'mock',
      scopeNote: 'Main campus',
      surveyWindowStart: '2026-03-01',
      surveyWindowEnd: '2026-06-30',
      upgradedFromId: e.assessment.id,
      createdBy: e.people.stdAdmin.id,
    });

    const newReqs = await reqIds(db(), id);
    expect(Object.keys(newReqs).sort()).toEqual(['GOV.1.1', 'GOV.2.1', 'GOV.3.1', 'IPC.1.1', 'IPC.1.2a', 'IPC.1.2b']);
    const rows = await reqRows(id);
    const rowOf = (ref: string) => {
      const row = rows.find((r) => r.id === newReqs[ref]);
      const { result, status, ownerId, dueDate, observation, naJustification, carriedFrom, version } = row!;
      return { result, status, ownerId, dueDate, observation, naJustification, carriedFrom, version };
    };
    // Equal: carried as it was, to be confirmed.
    expect(rowOf('GOV.1.1')).toEqual({
      result: 'compliant',
      status: 'in_review',
      ownerId: e.people.owner.id,
      dueDate: '2026-06-30',
      observation: 'Minutes of four meetings seen.',
      naJustification: '',
      carriedFrom: 'GOV.1.1 (2025): Compliant, equal',
      version: 0,
    });
    // Merged (2 -> 1): the worse result, its owner, the earliest due date, every ref named.
    expect(rowOf('GOV.2.1')).toEqual({
      result: 'partially_compliant',
      status: 'in_review',
      ownerId: e.people.contributor.id,
      dueDate: '2026-09-01',
      observation: 'GOV.2.1: QAPI plan approved late.',
      naJustification: '',
      carriedFrom: 'GOV.1.2 (2025): Compliant, subset; GOV.2.1 (2025): Partially compliant, subset',
      version: 0,
    });
    // New, and mapped as not related only: not assessed, to do.
    expect(rowOf('GOV.3.1')).toEqual({
      result: 'not_assessed',
      status: 'to_do',
      ownerId: null,
      dueDate: null,
      observation: '',
      naJustification: '',
      carriedFrom: '',
      version: 0,
    });
    // Renamed (equal) wins over the intersecting OB.1 (non-compliant): the strongest link only.
    expect(rowOf('IPC.1.1')).toMatchObject({
      result: 'partially_compliant',
      status: 'in_review',
      ownerId: e.people.owner2.id,
      carriedFrom: 'IC.1.1 (2025): Partially compliant, equal',
    });
    // Split (1 -> 2): both carry it.
    for (const ref of ['IPC.1.2a', 'IPC.1.2b']) {
      expect(rowOf(ref), ref).toEqual({
        result: 'non_compliant',
        status: 'in_review',
        ownerId: null,
        dueDate: '2026-12-01',
        observation: 'Two wards without rub.',
        naJustification: '',
        carriedFrom: 'IC.1.2 (2025): Non-compliant, superset',
        version: 0,
      });
    }
    // The retired OB.1 is carried nowhere.
    expect(rows.map((r) => r.carriedFrom).join(' ')).not.toContain('OB.1');

    // Leads: IC -> IPC is mapped one to one, so Leo leads IPC; GOV.1 and GOV.2 are not mapped.
    const leads = await db().select().from(stdLeads).where(eq(stdLeads.assessmentId, id));
    expect(leads.map((lead) => [lead.nodeId, lead.userId])).toEqual([[e.next.nodes.IPC, e.people.lead.id]]);

    // The old assessment is untouched.
    expect(await reqRows(e.assessment.id)).toEqual(oldRows);
    expect(await db().select().from(stdLeads).where(eq(stdLeads.assessmentId, e.assessment.id))).toEqual(oldLeads);
    expect((await db().select().from(stdAssessments).where(eq(stdAssessments.id, e.assessment.id)))[0]).toEqual(
      oldAssessment,
    );

    // The list names where it came from; the panel shows what was carried and the crosswalk to 2025.
    const listed = (await e.admin.get(`${e.base}/assessments`)).json().assessments as StdAssessment[];
    expect(listed.find((a) => a.id === id)).toMatchObject({
      upgraded_from: { id: e.assessment.id, name: 'Mock survey 2025' },
      framework: { id: e.next.framework.id, edition: '2026' },
      counts: { compliant: 1, partially_compliant: 2, non_compliant: 2, not_applicable: 0, not_assessed: 1 },
    });
    expect(listed.find((a) => a.id === e.assessment.id)!.upgraded_from).toBeNull();
    const panel = await readElement(e.admin, e.base, newReqs['IPC.1.1']!);
    expect(panel.carried_from).toBe('IC.1.1 (2025): Partially compliant, equal');
    expect(panel.status).toBe('in_review');
    expect(panel.crosswalk).toEqual(
      expect.arrayContaining([
        {
          framework: 'State quality standards 2025',
          ref_id: 'IC.1.1',
          title: 'Hand hygiene audits',
          relationship: 'equal',
        },
        {
          framework: 'State quality standards 2025',
          ref_id: 'OB.1',
          title: 'Labour ward staffing',
          relationship: 'intersect',
        },
      ]),
    );
    expect((await readElement(e.admin, e.base, newReqs['GOV.3.1']!)).carried_from).toBe('');

    const [event] = await auditOf(db(), e.project.id, 'standards.assessment_upgraded');
    expect(event).toMatchObject({
      actorUserId: e.people.stdAdmin.id,
      subjectType: 'std_assessment',
      subjectId: String(id),
      data: {
        from_assessment_id: e.assessment.id,
        from: 'STATE-QS 2025',
        to: 'STATE-QS 2026',
        name: 'Mock survey 2026',
        elements: 6,
        carried: 5,
        mapped_not_assessed: 0,
        new: 1,
        not_carried: 1,
        leads: 1,
        links_carried: 2,
      },
    });
    const carriedLinks = await db()
      .select({ nodeId: traceLinks.nodeId, note: traceLinks.note })
      .from(traceLinks)
      .where(and(eq(traceLinks.targetType, 'policy'), eq(traceLinks.targetId, policy.id)))
      .orderBy(asc(traceLinks.id));
    expect(carriedLinks).toEqual([
      { nodeId: e.old.nodes['IC.1.2'], note: 'Section 2' },
      { nodeId: e.next.nodes['IPC.1.2a'], note: 'Section 2' },
      { nodeId: e.next.nodes['IPC.1.2b'], note: 'Section 2' },
    ]);
  });

  it('carries the worst of several results, not applicable with its reasons, and skips not-assessed ones', async () => {
    const e = await editions();
    const { reqs } = e.assessment;
    for (const [ref, changes] of [
      ['GOV.1.1', { result: 'not_applicable', status: 'done', na_justification: 'No board.' }],
      ['GOV.1.2', { result: 'not_applicable', status: 'done', na_justification: 'No minutes needed.' }],
      ['IC.1.1', { result: 'compliant', status: 'done' }],
    ] as const) {
      const answer = await saveElement(e.admin, e.base, reqs[ref]!, changes);
      expect(answer.statusCode, answer.body).toBe(200);
    }
    // Stored 2026 -> 2025 this time: read the other way round (superset becomes subset).
    const answer = await e.admin.post(`${e.base}/crosswalks/import`, {
      source_framework_id: e.next.framework.id,
      target_framework_id: e.old.framework.id,
      csv: [
        'source_ref_id,target_ref_id,relationship',
        'GOV.1.1,GOV.1.1,superset',
        'GOV.1.1,GOV.1.2,superset',
        'IPC.1.1,IC.1.1,equal',
        'IPC.1.1,IC.1.2,equal',
        'IPC.1.2a,IC.1.2,equal',
        'GOV.3.1,OB.1,intersect',
      ].join('\n'),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const upgraded = await e.admin.post(`${e.base}/assessments/${e.assessment.id}/upgrade`, {
      framework_id: e.next.framework.id,
      name: 'Mock survey 2026',
    });
    expect(upgraded.statusCode, upgraded.body).toBe(201);
    const newReqs = await reqIds(db(), upgraded.json().id);
    const rows = await reqRows(upgraded.json().id);
    const rowOf = (ref: string) => rows.find((r) => r.id === newReqs[ref])!;
    expect(rowOf('GOV.1.1')).toMatchObject({
      result: 'not_applicable',
      status: 'in_review',
      naJustification: 'No board.\nNo minutes needed.',
      carriedFrom: 'GOV.1.1 (2025): Not applicable, subset; GOV.1.2 (2025): Not applicable, subset',
    });
    // Compliant and not assessed together: not assessed (it cannot be called compliant yet), so still to do.
    expect(rowOf('IPC.1.1')).toMatchObject({
      result: 'not_assessed',
      status: 'to_do',
      carriedFrom: 'IC.1.1 (2025): Compliant, equal; IC.1.2 (2025): Not assessed, equal',
    });
    // Mapped to an element never assessed: named in carried_from, the work is still to do.
    expect(rowOf('IPC.1.2a')).toMatchObject({ result: 'not_assessed', status: 'to_do' });
    expect(rowOf('GOV.3.1')).toMatchObject({
      result: 'not_assessed',
      status: 'to_do',
      carriedFrom: 'OB.1 (2025): Not assessed, intersect',
    });
    const [event] = await auditOf(db(), e.project.id, 'standards.assessment_upgraded');
    expect(event!.data).toMatchObject({ carried: 1, mapped_not_assessed: 3, new: 2, leads: 0 });
  });

  it('upgrades to another framework linked by a crosswalk, and refuses other projects and frameworks', async () => {
    const e = await editions();
    const local = await importFramework(db(), e.admin, e.base, { code: 'LOCAL', name: 'Local policies', edition: '1' });
    const imported = await e.admin.post(`${e.base}/crosswalks/import`, {
      source_framework_id: local.framework.id,
      target_framework_id: e.old.framework.id,
      csv: 'source_ref_id,target_ref_id,relationship\nOB.1,OB.1,equal\n',
    });
    expect(imported.statusCode, imported.body).toBe(200);
    await saveElement(e.admin, e.base, e.assessment.reqs['OB.1']!, { result: 'compliant', status: 'done' });
    const answer = await e.admin.post(`${e.base}/assessments/${e.assessment.id}/upgrade`, {
      framework_id: local.framework.id,
      name: 'Local policies',
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const newReqs = await reqIds(db(), answer.json().id);
    const [ob] = await db().select().from(stdReqAssessments).where(eq(stdReqAssessments.id, newReqs['OB.1']!));
    expect(ob).toMatchObject({
      result: 'compliant',
      status: 'in_review',
      carriedFrom: 'OB.1 (2025): Compliant, equal',
    });

    // Another project's admin: 404 for this project's assessment under their project, and for their framework here.
    const outsider = await ctx.signedIn(e.people.outsider);
    const theirs = await importFramework(db(), outsider, e.otherBase, { code: 'SOUTH' });
    const before = await standardsSnapshot(db());
    const foreign = await outsider.post(`${e.otherBase}/assessments/${e.assessment.id}/upgrade`, {
      framework_id: theirs.framework.id,
      name: 'Taken',
    });
    expect(foreign.statusCode).toBe(404);
    const toTheirs = await e.admin.post(`${e.base}/assessments/${e.assessment.id}/upgrade`, {
      framework_id: theirs.framework.id,
      name: 'Taken',
    });
    expect(toTheirs.statusCode).toBe(404);
    expect(await standardsSnapshot(db())).toEqual(before);
  });
});
