import type { StdElementHit, StdLink } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addResults } from '../../../test/chart-review-findings-kit.js';
import { createTool, programInput, question } from '../../../test/chart-review-kit.js';
import { addMember, createUser, setMainRole } from '../../../test/factories.js';
import { addBareMeasure } from '../../../test/monitoring-data-kit.js';
import { insertPage } from '../../../test/monitoring-kit.js';
import {
  addPolicy,
  addProgram,
  agentsOf,
  auditOf,
  createAssessment,
  importFramework,
  readElement,
  type StandardsSetup,
  standardsSetup,
  standardsSnapshot,
} from '../../../test/standards-kit.js';
import {
  crQuestions,
  monMeasures,
  policyAttestations,
  policyDepartmentRoles,
  policyDepartments,
  policyDocuments,
  traceLinks,
} from '../../db/schema/index.js';

/**
 * The closed loop: links from elements to policies, measures and chart review programmes, written from the
 * target's side (its app's add-standards section) or the element's side (standards roles), and the live state of
 * what is linked in the element panel.
 */
describe('standards links', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const FORBIDDEN = 'Your standards role does not allow this.';

  const link = (s: StandardsSetup, ref: keyof StandardsSetup['nodes'], type: string, id: number, note = '') => ({
    node_id: s.nodes[ref],
    target_type: type,
    target_id: id,
    note,
  });

  it('lets a policy admin without a standards role find elements, link a policy, list and remove its links', async () => {
    const s = await standardsSetup(ctx);
    const policy = await addPolicy(db(), s.project.id, { title: 'Board governance', number: '1.1' });
    const policyAdmin = await ctx.signedIn(s.people.policyAdmin);
    expect((await policyAdmin.get(`${s.base}/me`)).statusCode).toBe(403);

    const all = await policyAdmin.get(`${s.base}/elements?for=policy`);
    expect(all.statusCode, all.body).toBe(200);
    const hits = all.json().elements as StdElementHit[];
    expect(hits.map((h) => h.ref_id)).toEqual(['GOV.1.1', 'GOV.1.2', 'GOV.2.1', 'IC.1.1', 'IC.1.2', 'OB.1']);
    expect(hits[0]).toEqual({
      node_id: s.nodes['GOV.1.1'],
      ref_id: 'GOV.1.1',
      title: 'Board meets quarterly',
      wording: '',
      framework: 'STATE-QS 2026',
      path: 'GOV › GOV.1',
    });
    expect(all.json().more).toBe(false);
    // Search by ref, title or the facility's wording.
    await s.admin.put(`${s.base}/req-assessments/${s.reqs['IC.1.2']}/wording`, {
      wording: 'Gel dispensers at each bed.',
      guidance: '',
      public_url: '',
    });
    for (const [search, refs] of [
      ['board', ['GOV.1.1']],
      ['ic.1', ['IC.1.1', 'IC.1.2']],
      ['DISPENSERS', ['IC.1.2']],
      ['100%_', []],
    ] as const) {
      const found = await policyAdmin.get(`${s.base}/elements?for=policy&search=${encodeURIComponent(search)}`);
      expect(found.statusCode).toBe(200);
      expect(
        (found.json().elements as StdElementHit[]).map((h) => h.ref_id),
        search,
      ).toEqual(refs);
    }
    expect(
      (
        (await policyAdmin.get(`${s.base}/elements?for=policy&search=dispensers`)).json().elements as StdElementHit[]
      )[0]!.wording,
    ).toBe('Gel dispensers at each bed.');

    const created = await policyAdmin.post(`${s.base}/links`, link(s, 'GOV.1.1', 'policy', policy.id, 'Section 2'));
    expect(created.statusCode, created.body).toBe(201);
    const made = created.json() as StdLink;
    expect(made).toMatchObject({
      node_id: s.nodes['GOV.1.1'],
      ref_id: 'GOV.1.1',
      title: 'Board meets quarterly',
      framework: 'STATE-QS 2026',
      target_type: 'policy',
      target_id: policy.id,
      note: 'Section 2',
      created_by: 'Paula Policy',
    });
    const second = await policyAdmin.post(`${s.base}/links`, link(s, 'IC.1.1', 'policy', policy.id));
    expect(second.statusCode).toBe(201);
    const [event] = await auditOf(db(), s.project.id, 'standards.link_created');
    expect(event).toMatchObject({
      actorUserId: s.people.policyAdmin.id,
      subjectType: 'std_node',
      subjectId: String(s.nodes['GOV.1.1']),
      data: {
        link_id: made.id,
        target_type: 'policy',
        target_id: policy.id,
        summary: ['Linked policy 1.1 Board governance'],
      },
    });

    const listed = await policyAdmin.get(`${s.base}/links?target_type=policy&target_id=${policy.id}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json().links as StdLink[]).map((l) => l.ref_id)).toEqual(['GOV.1.1', 'IC.1.1']);

    const removed = await policyAdmin.delete(`${s.base}/links/${made.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await db().select().from(traceLinks).where(eq(traceLinks.id, made.id))).toEqual([]);
    const [deleted] = await auditOf(db(), s.project.id, 'standards.link_deleted');
    expect(deleted).toMatchObject({ actorUserId: s.people.policyAdmin.id, data: { link_id: made.id } });
    const after = await policyAdmin.get(`${s.base}/links?target_type=policy&target_id=${policy.id}`);
    expect((after.json().links as StdLink[]).map((l) => l.ref_id)).toEqual(['IC.1.1']);

    // A policy reader (no add-standards, no standards role) may not link.
    const reader = await createUser(db(), { firstName: 'Rita', lastName: 'Reader' });
    await addMember(db(), s.project.id, reader.id, 'simple');
    await setMainRole(db(), s.project.id, reader.id, 'policy_management', 'reader');
    const readerAgent = await ctx.signedIn(reader);
    // The policy admin's access is the policy side's: measures are not theirs.
    const before = await standardsSnapshot(db());
    expect((await policyAdmin.get(`${s.base}/elements?for=measure`)).statusCode).toBe(403);
    expect((await policyAdmin.get(`${s.base}/link-targets?type=policy`)).statusCode).toBe(403);
    expect((await readerAgent.get(`${s.base}/elements?for=policy`)).statusCode).toBe(403);
    const refused = await readerAgent.post(`${s.base}/links`, link(s, 'GOV.1.2', 'policy', policy.id));
    expect(refused.statusCode).toBe(403);
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('lets a monitoring admin without a standards role link a measure, list and remove its links', async () => {
    const s = await standardsSetup(ctx);
    const page = await insertPage(db(), s.project.id, { title: 'Falls dashboard' });
    const measure = await addBareMeasure(db(), { projectId: s.project.id, pageId: page.id, name: 'Falls with injury' });
    const monitoringAdmin = await ctx.signedIn(s.people.monitoringAdmin);
    const found = await monitoringAdmin.get(`${s.base}/elements?for=measure&search=hand`);
    expect(found.statusCode, found.body).toBe(200);
    expect((found.json().elements as StdElementHit[]).map((h) => h.ref_id)).toEqual(['IC.1.1']);
    const created = await monitoringAdmin.post(`${s.base}/links`, link(s, 'IC.1.1', 'measure', measure.id));
    expect(created.statusCode, created.body).toBe(201);
    const listed = await monitoringAdmin.get(`${s.base}/links?target_type=measure&target_id=${measure.id}`);
    expect((listed.json().links as StdLink[]).map((l) => [l.ref_id, l.created_by])).toEqual([
      ['IC.1.1', 'Mona Monitor'],
    ]);
    // Not the policy side.
    expect((await monitoringAdmin.get(`${s.base}/elements?for=policy`)).statusCode).toBe(403);
    const removed = await monitoringAdmin.delete(`${s.base}/links/${created.json().id}`);
    expect(removed.statusCode).toBe(204);
    expect((await monitoringAdmin.get(`${s.base}/links?target_type=measure&target_id=${measure.id}`)).json()).toEqual({
      links: [],
    });
    // A link to a policy is the policy side's (or standards'): the monitoring admin may not remove it.
    const policy = await addPolicy(db(), s.project.id, { title: 'Falls prevention' });
    const byAdmin = await s.admin.post(`${s.base}/links`, link(s, 'IC.1.1', 'policy', policy.id));
    expect(byAdmin.statusCode).toBe(201);
    expect((await monitoringAdmin.delete(`${s.base}/links/${byAdmin.json().id}`)).statusCode).toBe(403);
  });

  it('lets a standards owner link from their own element only; link targets list the project’s items', async () => {
    const s = await standardsSetup(ctx);
    const policy = await addPolicy(db(), s.project.id, { title: 'Board governance', number: '1.1' });
    const draft = await addPolicy(db(), s.project.id, { title: 'Board minutes', number: '1.2', published: false });
    const archived = await addPolicy(db(), s.project.id, { title: 'Old board rules', number: '0.9' });
    await db().update(policyDocuments).set({ status: 'archived' }).where(eq(policyDocuments.id, archived.id));
    await addPolicy(db(), s.other.id, { title: 'Board of the south', number: '1.1' });
    const page = await insertPage(db(), s.project.id, { title: 'Infection dashboard' });
    const measure = await addBareMeasure(db(), { projectId: s.project.id, pageId: page.id, name: 'Hand hygiene rate' });
    const program = await addProgram(db(), s.project.id, 'Hand hygiene audit');

    const owner = await ctx.signedIn(s.people.owner);
    const policies = await owner.get(`${s.base}/link-targets?type=policy`);
    expect(policies.statusCode, policies.body).toBe(200);
    // Without a policy management role the owner sees what every member does: published policies, never a draft.
    expect(policies.json().targets).toEqual([{ id: policy.id, label: '1.1 Board governance', detail: 'published' }]);
    expect((await owner.get(`${s.base}/link-targets?type=policy&search=minutes`)).json().targets).toEqual([]);
    expect((await owner.post(`${s.base}/links`, link(s, 'GOV.1.1', 'policy', draft.id))).statusCode).toBe(404);
    // An author sees drafts in policy management, and so here.
    await setMainRole(db(), s.project.id, s.people.owner.id, 'policy_management', 'author');
    expect((await owner.get(`${s.base}/link-targets?type=policy&search=minutes`)).json().targets).toEqual([
      { id: draft.id, label: '1.2 Board minutes', detail: 'draft' },
    ]);
    expect((await owner.get(`${s.base}/link-targets?type=measure`)).json().targets).toEqual([
      { id: measure.id, label: 'Hand hygiene rate', detail: 'Infection dashboard' },
    ]);
    expect((await owner.get(`${s.base}/link-targets?type=cr_program`)).json().targets).toEqual([
      { id: program.id, label: 'Hand hygiene audit', detail: 'Chart review programme (active)' },
    ]);
    for (const who of ['assessor', 'viewer'] as const) {
      const agent = await ctx.signedIn(s.people[who]);
      const refused = await agent.get(`${s.base}/link-targets?type=policy`);
      expect(refused.statusCode, who).toBe(403);
      expect(refused.json().message).toBe(FORBIDDEN);
    }

    const own = await owner.post(`${s.base}/links`, link(s, 'GOV.1.1', 'policy', policy.id));
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().created_by).toBe('Owen Owner');
    expect((await owner.post(`${s.base}/links`, link(s, 'GOV.1.2', 'measure', measure.id))).statusCode).toBe(201);
    const contributor = await ctx.signedIn(s.people.contributor);
    expect((await contributor.post(`${s.base}/links`, link(s, 'GOV.2.1', 'cr_program', program.id))).statusCode).toBe(
      201,
    );
    const byAdmin = await s.admin.post(`${s.base}/links`, link(s, 'IC.1.1', 'policy', policy.id));
    expect(byAdmin.statusCode).toBe(201);

    const readers = await agentsOf(ctx, s, ['assessor', 'viewer']);
    const before = await standardsSnapshot(db());
    for (const ref of ['GOV.2.1', 'IC.1.1', 'OB.1'] as const) {
      const refused = await owner.post(`${s.base}/links`, link(s, ref, 'policy', draft.id));
      expect(refused.statusCode, ref).toBe(403);
      expect(refused.json().message).toBe(FORBIDDEN);
    }
    for (const [who, agent] of Object.entries(readers)) {
      expect((await agent.post(`${s.base}/links`, link(s, 'OB.1', 'policy', draft.id))).statusCode, who).toBe(403);
    }
    expect((await owner.delete(`${s.base}/links/${byAdmin.json().id}`)).statusCode).toBe(403);
    expect(await standardsSnapshot(db())).toEqual(before);
    expect((await owner.delete(`${s.base}/links/${own.json().id}`)).statusCode).toBe(204);
    // The chapter lead links below the nodes they lead.
    const lead = await ctx.signedIn(s.people.lead);
    expect((await lead.post(`${s.base}/links`, link(s, 'IC.1.2', 'policy', policy.id))).statusCode).toBe(201);
    expect((await lead.post(`${s.base}/links`, link(s, 'OB.1', 'policy', policy.id))).statusCode).toBe(403);
  });

  it("refuses another project's targets and nodes (404), archived policies, and duplicates (409)", async () => {
    const s = await standardsSetup(ctx);
    const policy = await addPolicy(db(), s.project.id, { title: 'Board governance' });
    const foreignPolicy = await addPolicy(db(), s.other.id, { title: 'Board of the south' });
    const foreignPage = await insertPage(db(), s.other.id, { title: 'South falls' });
    const foreignMeasure = await addBareMeasure(db(), { projectId: s.other.id, pageId: foreignPage.id });
    const foreignProgram = await addProgram(db(), s.other.id, 'South audit');
    const archived = await addPolicy(db(), s.project.id, { title: 'Old rules' });
    await db().update(policyDocuments).set({ status: 'archived' }).where(eq(policyDocuments.id, archived.id));
    const page = await insertPage(db(), s.project.id, { title: 'Retired measures' });
    const deletedMeasure = await addBareMeasure(db(), { projectId: s.project.id, pageId: page.id });
    await db().update(monMeasures).set({ deletedAt: new Date() }).where(eq(monMeasures.id, deletedMeasure.id));
    const outsider = await ctx.signedIn(s.people.outsider);
    const theirs = await importFramework(db(), outsider, s.otherBase, { code: 'SOUTH' });
    await createAssessment(db(), outsider, s.otherBase, theirs.framework.id);
    // A framework of this project that no assessment uses has no elements to link.
    const unused = await importFramework(db(), s.admin, s.base, { code: 'UNUSED' });

    const before = await standardsSnapshot(db());
    const cases: [Record<string, unknown>, string, string][] = [
      [link(s, 'GOV.1.1', 'policy', foreignPolicy.id), 'target_id', 'Choose a policy of this project.'],
      [link(s, 'GOV.1.1', 'measure', foreignMeasure.id), 'target_id', 'Choose a measure of this project.'],
      [
        link(s, 'GOV.1.1', 'cr_program', foreignProgram.id),
        'target_id',
        'Choose a chart review programme of this project.',
      ],
      [link(s, 'GOV.1.1', 'policy', archived.id), 'target_id', 'Choose a policy of this project.'],
      [link(s, 'GOV.1.1', 'measure', deletedMeasure.id), 'target_id', 'Choose a measure of this project.'],
      [
        { node_id: theirs.nodes['GOV.1.1'], target_type: 'policy', target_id: policy.id, note: '' },
        'node_id',
        'Choose a standard element of this project.',
      ],
      [
        { node_id: unused.nodes['GOV.1.1'], target_type: 'policy', target_id: policy.id, note: '' },
        'node_id',
        'Choose a standard element of this project.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const answer = await s.admin.post(`${s.base}/links`, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(404);
      expect(answer.json().errors[field], JSON.stringify(body)).toEqual([message]);
    }
    const listForeign = await s.admin.get(`${s.base}/links?target_type=policy&target_id=${foreignPolicy.id}`);
    expect(listForeign.statusCode).toBe(404);
    expect(await standardsSnapshot(db())).toEqual(before);

    const first = await s.admin.post(`${s.base}/links`, link(s, 'GOV.1.1', 'policy', policy.id));
    expect(first.statusCode).toBe(201);
    const afterFirst = await standardsSnapshot(db());
    const duplicate = await s.admin.post(`${s.base}/links`, link(s, 'GOV.1.1', 'policy', policy.id, 'again'));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe('GOV.1.1 is linked to this policy already.');
    expect(await standardsSnapshot(db())).toEqual(afterFirst);
    // Another project's link is not found.
    const theirPolicy = await addPolicy(db(), s.other.id, { title: 'South policy' });
    const theirLink = await outsider.post(`${s.otherBase}/links`, {
      node_id: theirs.nodes['GOV.1.1'],
      target_type: 'policy',
      target_id: theirPolicy.id,
      note: '',
    });
    expect(theirLink.statusCode, theirLink.body).toBe(201);
    expect((await s.admin.delete(`${s.base}/links/${theirLink.json().id}`)).statusCode).toBe(404);
    expect(await db().select().from(traceLinks).where(eq(traceLinks.id, theirLink.json().id))).toHaveLength(1);
  });

  it('shows the live state of linked policies, measures and programmes in the element panel', async () => {
    const s = await standardsSetup(ctx);
    const [department] = await db()
      .insert(policyDepartments)
      .values({ projectId: s.project.id, name: 'Nursing', code: 'NUR' })
      .returning();
    for (const reader of [s.people.owner, s.people.owner2]) {
      await db()
        .insert(policyDepartmentRoles)
        .values({ projectId: s.project.id, departmentId: department!.id, userId: reader.id, role: 'reader' });
    }
    const signers = [
      { id: s.people.admin.id, name: 'Ada Admin' },
      { id: s.people.policyAdmin.id, name: 'Paula Policy' },
    ];
    const current = await addPolicy(db(), s.project.id, {
      title: 'Board governance',
      number: '1.1',
      departmentId: department!.id,
      nextReviewOn: '2099-01-01',
      signers,
    });
    await db()
      .insert(policyAttestations)
      .values({
        projectId: s.project.id,
        documentId: current.id,
        versionId: current.versionId,
        userId: s.people.owner.id,
        attestedAt: new Date('2026-02-01T09:00:00Z'),
      });
    const late = await addPolicy(db(), s.project.id, {
      title: 'Board minutes',
      number: '1.2',
      nextReviewOn: '2020-01-01',
    });
    const retired = await addPolicy(db(), s.project.id, { title: 'Board rules', number: '1.3', signers });
    const draft = await addPolicy(db(), s.project.id, { title: 'Board charter', number: '1.4', published: false });
    const page = await insertPage(db(), s.project.id, { title: 'Governance dashboard' });
    const measure = await addBareMeasure(db(), { projectId: s.project.id, pageId: page.id, name: 'Board attendance' });
    const program = await addProgram(db(), s.project.id, 'Board minutes audit');
    // Linking the draft takes someone who sees drafts in policy management.
    await setMainRole(db(), s.project.id, s.people.admin.id, 'policy_management', 'author');
    for (const body of [
      link(s, 'GOV.1.1', 'policy', current.id, 'Section 2'),
      link(s, 'GOV.1.1', 'policy', late.id),
      link(s, 'GOV.1.1', 'policy', retired.id),
      link(s, 'GOV.1.1', 'policy', draft.id),
      link(s, 'GOV.1.1', 'measure', measure.id, 'Quarterly'),
      link(s, 'GOV.1.1', 'cr_program', program.id),
    ]) {
      const answer = await s.admin.post(`${s.base}/links`, body);
      expect(answer.statusCode, answer.body).toBe(201);
    }
    // Archived after it was linked: the link stays, its evidence expires.
    await db().update(policyDocuments).set({ status: 'archived' }).where(eq(policyDocuments.id, retired.id));

    // The standards viewer reads policies as a reader: the draft is left out of the panel and of the counts.
    const viewer = await ctx.signedIn(s.people.viewer);
    const asReader = await readElement(viewer, s.base, s.reqs['GOV.1.1']);
    expect(asReader.policies.map((p) => p.title).sort()).toEqual(['Board governance', 'Board minutes', 'Board rules']);
    const readerTree = await viewer.get(`${s.base}/assessments/${s.assessmentId}/tree`);
    expect(readerTree.json().rows.find((r: { ref_id: string }) => r.ref_id === 'GOV.1.1').req.links).toEqual({
      policy: 3,
      measure: 1,
      cr_program: 1,
    });
    await setMainRole(db(), s.project.id, s.people.viewer.id, 'policy_management', 'author');
    const panel = await readElement(viewer, s.base, s.reqs['GOV.1.1']);
    // The links made on the element's node are in its history.
    expect(panel.history.map((h) => h.summary)).toContain('Linked policy 1.1 Board governance');
    const byTitle = new Map(panel.policies.map((p) => [p.title, p]));
    expect(byTitle.get('Board governance')).toMatchObject({
      id: current.id,
      number: '1.1',
      note: 'Section 2',
      status: 'published',
      approved: true,
      version: 1,
      effective_on: '2026-01-15',
      signatures: 2,
      attestation_rate: 0.5,
      next_review_on: '2099-01-01',
      review_overdue: false,
      evidence_expired: false,
    });
    expect(byTitle.get('Board minutes')).toMatchObject({
      approved: true,
      attestation_rate: null,
      next_review_on: '2020-01-01',
      review_overdue: true,
      evidence_expired: true,
    });
    expect(byTitle.get('Board rules')).toMatchObject({
      status: 'archived',
      approved: false,
      version: null,
      signatures: 0,
      evidence_expired: true,
    });
    expect(byTitle.get('Board charter')).toMatchObject({
      status: 'draft',
      approved: false,
      version: null,
      effective_on: null,
      evidence_expired: true,
    });
    expect(panel.measures).toHaveLength(1);
    expect(panel.measures[0]).toMatchObject({
      id: measure.id,
      name: 'Board attendance',
      note: 'Quarterly',
      page_id: page.id,
      page_title: 'Governance dashboard',
      latest: null,
      meets_target: null,
    });
    expect(panel.programs.map((p) => [p.id, p.name])).toEqual([[program.id, 'Board minutes audit']]);
    // The tree counts the links of each kind.
    const tree = await viewer.get(`${s.base}/assessments/${s.assessmentId}/tree`);
    const row = tree.json().rows.find((r: { ref_id: string }) => r.ref_id === 'GOV.1.1');
    expect(row.req.links).toEqual({ policy: 4, measure: 1, cr_program: 1 });
    // Another element has none.
    expect((await readElement(viewer, s.base, s.reqs['GOV.1.2'])).policies).toEqual([]);
  });

  it('links an audit question: its compliance in each programme of its tool, newest counted period', async () => {
    ctx.clock.set(new Date('2026-11-27T12:00:00Z'));
    const s = await standardsSetup(ctx);
    const superadmin = await ctx.signedIn(s.people.superadmin);
    const crBase = `/api/projects/${s.project.id}/chart-review`;
    const tool = await createTool(superadmin, crBase, 'Pain', [question('reassessed'), question('pain_scored')]);
    const program = await superadmin.post(`${crBase}/programs`, programInput(tool.id, { name: 'Pain audit' }));
    expect(program.statusCode, program.body).toBe(201);
    const where = { projectId: s.project.id, programId: program.json().id as number, toolVersionId: tool.versionId };
    await addResults(db(), { ...where, period: '2026-09-01' }, [{ unit: 'Ward A', answers: { reassessed: 'no' } }]);
    await addResults(db(), { ...where, period: '2026-10-01' }, [
      { unit: 'Ward A', answers: { reassessed: 'yes' } },
      { unit: 'Ward A', answers: { reassessed: 'yes' } },
      { unit: 'Ward B', answers: { reassessed: 'no' } },
      { unit: 'Ward B', answers: { reassessed: 'na' } },
      // Waiting for adjudication: in no rate.
      { unit: 'Ward B', answers: { reassessed: 'no' }, counts: false },
    ]);
    const [reassessed] = await db()
      .select({ id: crQuestions.id })
      .from(crQuestions)
      .where(and(eq(crQuestions.toolVersionId, tool.versionId), eq(crQuestions.key, 'reassessed')));

    // The owner of GOV.1.1 finds the question among the link targets and links it.
    const owner = await ctx.signedIn(s.people.owner);
    const targets = await owner.get(`${s.base}/link-targets?type=cr_question&search=reassessed`);
    expect(targets.json().targets).toEqual([
      { id: reassessed!.id, label: 'Is reassessed documented?', detail: 'Pain · reassessed' },
    ]);
    const made = await owner.post(`${s.base}/links`, link(s, 'GOV.1.1', 'cr_question', reassessed!.id));
    expect(made.statusCode, made.body).toBe(201);
    const panel = await readElement(owner, s.base, s.reqs['GOV.1.1']);
    expect(panel.questions).toEqual([
      {
        link_id: made.json().id,
        note: '',
        id: reassessed!.id,
        key: 'reassessed',
        text: 'Is reassessed documented?',
        tool: 'Pain',
        tool_id: tool.id,
        programs: [
          { id: where.programId, name: 'Pain audit', target: 0.9, latest: { period: 'Oct 2026', rate: 2 / 3, n: 3 } },
        ],
      },
    ]);
    // The tree counts it with the audits.
    const tree = await owner.get(`${s.base}/assessments/${s.assessmentId}/tree`);
    const row = tree.json().rows.find((r: { ref_id: string }) => r.ref_id === 'GOV.1.1');
    expect(row.req.links).toEqual({ policy: 0, measure: 0, cr_program: 1 });
    // Another project's question is not found.
    const otherBase = `/api/projects/${s.other.id}/chart-review`;
    await addMember(db(), s.other.id, s.people.superadmin.id, 'admin');
    const foreign = await createTool(superadmin, otherBase, 'Elsewhere', [question('other')]);
    const [foreignQuestion] = await db()
      .select({ id: crQuestions.id })
      .from(crQuestions)
      .where(eq(crQuestions.toolVersionId, foreign.versionId));
    const refused = await s.admin.post(`${s.base}/links`, link(s, 'GOV.1.2', 'cr_question', foreignQuestion!.id));
    expect(refused.statusCode).toBe(404);
  });
});
