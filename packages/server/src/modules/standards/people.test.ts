import type { StdAssignments, StdMember, StdMy } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  agentsOf,
  auditOf,
  createAssessment,
  readElement,
  saveElement,
  standardsSetup,
  standardsSnapshot,
} from '../../../test/standards-kit.js';
import { stdLeads, stdMembers, stdReqAssessments, users } from '../../db/schema/index.js';
import { STANDARDS_UNCONFIGURED } from '../../policies/standards.js';

/** People in standards: roles (manage-users), leads and owners by node (assign-users), and my elements. */
describe('standards people', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const OWNING = 'Choose a person with a standards role that may own elements.';

  it('lists the project members with their stored and effective standards roles', async () => {
    const s = await standardsSetup(ctx);
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, s.people.monitoringAdmin.id));
    const viewer = await ctx.signedIn(s.people.viewer);
    const answer = await viewer.get(`${s.base}/members`);
    expect(answer.statusCode, answer.body).toBe(200);
    const members = answer.json().members as StdMember[];
    expect(members.map((m) => [m.name, m.project_role, m.role, m.effective_role])).toEqual([
      ['Ada Admin', 'admin', null, 'standards_admin'],
      ['Cora Contributor', 'simple', 'contributor', 'contributor'],
      ['Leo Lead', 'simple', 'chapter_lead', 'chapter_lead'],
      ['Max Mock', 'simple', 'mock_assessor', 'mock_assessor'],
      ['Nora None', 'simple', null, null],
      ['Olive Second', 'simple', 'owner', 'owner'],
      ['Owen Owner', 'simple', 'owner', 'owner'],
      ['Paula Policy', 'simple', null, null],
      ['Stan Standards', 'simple', 'standards_admin', 'standards_admin'],
      ['Vera Viewer', 'simple', 'viewer', 'viewer'],
    ]);
    expect(members[0]).toEqual({
      user_id: s.people.admin.id,
      name: 'Ada Admin',
      email: s.people.admin.email,
      project_role: 'admin',
      role: null,
      effective_role: 'standards_admin',
    });
    // A stored role under a project admin does not change what they are.
    await db().insert(stdMembers).values({ projectId: s.project.id, userId: s.people.admin.id, role: 'viewer' });
    const again = (await viewer.get(`${s.base}/members`)).json().members as StdMember[];
    expect(again[0]).toMatchObject({ role: 'viewer', effective_role: 'standards_admin' });
    expect((await s.admin.get(`${s.base}/me`)).json().role).toBe('standards_admin');
  });

  it('sets and removes a standards role (audited); refuses project admins, non-admins and other projects', async () => {
    const s = await standardsSetup(ctx);
    const noRole = await ctx.signedIn(s.people.noRole);
    expect((await noRole.get(`${s.base}/me`)).statusCode).toBe(403);
    const set = await s.admin.put(`${s.base}/members/${s.people.noRole.id}`, { role: 'owner' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({
      user_id: s.people.noRole.id,
      name: 'Nora None',
      email: s.people.noRole.email,
      project_role: 'simple',
      role: 'owner',
      effective_role: 'owner',
    });
    expect((await noRole.get(`${s.base}/me`)).json().role).toBe('owner');
    // A standards admin who is not a project admin changes roles too.
    const stdAdmin = await ctx.signedIn(s.people.stdAdmin);
    const changed = await stdAdmin.put(`${s.base}/members/${s.people.noRole.id}`, { role: 'chapter_lead' });
    expect(changed.statusCode).toBe(200);
    expect((await noRole.get(`${s.base}/me`)).json().role).toBe('chapter_lead');
    const removed = await s.admin.put(`${s.base}/members/${s.people.noRole.id}`, { role: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ role: null, effective_role: null });
    const stored = await db()
      .select()
      .from(stdMembers)
      .where(and(eq(stdMembers.projectId, s.project.id), eq(stdMembers.userId, s.people.noRole.id)));
    expect(stored).toEqual([]);
    const gone = await noRole.get(`${s.base}/me`);
    expect(gone.statusCode).toBe(403);
    expect(gone.json().message).toBe(STANDARDS_UNCONFIGURED);
    const events = await auditOf(db(), s.project.id, 'standards.role_changed');
    expect(events.map((e) => [e.actorUserId, e.subjectType, e.subjectId, e.data])).toEqual([
      [
        s.people.admin.id,
        'user',
        String(s.people.noRole.id),
        { from: null, to: 'owner', changes: { role: { from: null, to: 'owner' } } },
      ],
      [
        s.people.stdAdmin.id,
        'user',
        String(s.people.noRole.id),
        { from: 'owner', to: 'chapter_lead', changes: { role: { from: 'owner', to: 'chapter_lead' } } },
      ],
      [
        s.people.admin.id,
        'user',
        String(s.people.noRole.id),
        { from: 'chapter_lead', to: null, changes: { role: { from: 'chapter_lead', to: null } } },
      ],
    ]);

    const agents = await agentsOf(ctx, s, ['lead', 'owner', 'viewer']);
    const before = await standardsSnapshot(db());
    const onAdmin = await stdAdmin.put(`${s.base}/members/${s.people.admin.id}`, { role: 'viewer' });
    expect(onAdmin.statusCode).toBe(400);
    expect(onAdmin.json().errors.role).toEqual([
      'Project admins are standards admins already: change their project role instead.',
    ]);
    for (const [who, agent] of Object.entries(agents)) {
      const refused = await agent.put(`${s.base}/members/${s.people.owner2.id}`, { role: 'viewer' });
      expect(refused.statusCode, who).toBe(403);
    }
    const foreign = await s.admin.put(`${s.base}/members/${s.people.outsider.id}`, { role: 'owner' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('This person is not a member of the project.');
    expect((await s.admin.put(`${s.base}/members/999999`, { role: 'owner' })).statusCode).toBe(404);
    const invalid = await s.admin.put(`${s.base}/members/${s.people.owner2.id}`, { role: 'boss' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.role).toEqual(['Choose a standards role.']);
    expect(await standardsSnapshot(db())).toEqual(before);
  });

  it('shows leads, owners and unowned elements by node to admins and chapter leads', async () => {
    const s = await standardsSetup(ctx);
    const lead = await ctx.signedIn(s.people.lead);
    const answer = await lead.get(`${s.base}/assessments/${s.assessmentId}/assignments`);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as StdAssignments;
    expect(body.assessment_id).toBe(s.assessmentId);
    const owen = { id: s.people.owner.id, name: 'Owen Owner' };
    const cora = { id: s.people.contributor.id, name: 'Cora Contributor' };
    expect(body.rows.map((r) => [r.ref_id, r.lead, r.owners, r.unowned, r.elements])).toEqual([
      ['GOV', null, [cora, owen], 0, 3],
      ['GOV.1', owen, [owen], 0, 2],
      ['GOV.2', cora, [cora], 0, 1],
      ['IC', { id: s.people.lead.id, name: 'Leo Lead' }, [], 2, 2],
      ['IC.1', null, [], 2, 2],
      ['OB', null, [], 1, 1],
    ]);
    expect(body.rows[1]).toMatchObject({ node_id: s.nodes['GOV.1'], parent_id: s.nodes.GOV, depth: 1 });
    expect(body.people.map((p) => [p.name, p.role])).toEqual([
      ['Ada Admin', 'standards_admin'],
      ['Cora Contributor', 'contributor'],
      ['Leo Lead', 'chapter_lead'],
      ['Olive Second', 'owner'],
      ['Owen Owner', 'owner'],
      ['Stan Standards', 'standards_admin'],
    ]);
    for (const who of ['owner', 'contributor', 'assessor', 'viewer'] as const) {
      const agent = await ctx.signedIn(s.people[who]);
      expect((await agent.get(`${s.base}/assessments/${s.assessmentId}/assignments`)).statusCode, who).toBe(403);
    }
  });

  it('gives every element below a node its owner (overwriting), audited; validates the people and the node', async () => {
    const s = await standardsSetup(ctx);
    const url = `${s.base}/assessments/${s.assessmentId}/assignments`;
    const answer = await s.admin.put(url, { node_id: s.nodes.GOV, owner_id: s.people.owner2.id });
    expect(answer.statusCode, answer.body).toBe(200);
    const olive = { id: s.people.owner2.id, name: 'Olive Second' };
    const rows = new Map((answer.json() as StdAssignments).rows.map((r) => [r.ref_id, r]));
    expect(rows.get('GOV')).toMatchObject({ owners: [olive], unowned: 0, lead: null });
    expect(rows.get('GOV.1')).toMatchObject({ owners: [olive], lead: { id: s.people.owner.id } });
    for (const ref of ['GOV.1.1', 'GOV.1.2', 'GOV.2.1'] as const) {
      const [row] = await db().select().from(stdReqAssessments).where(eq(stdReqAssessments.id, s.reqs[ref]));
      expect(row, ref).toMatchObject({ ownerId: s.people.owner2.id, version: 1, updatedBy: s.people.admin.id });
    }
    const [ic] = await db().select().from(stdReqAssessments).where(eq(stdReqAssessments.id, s.reqs['IC.1.1']));
    expect(ic).toMatchObject({ ownerId: null, version: 0 });
    const [event] = await auditOf(db(), s.project.id, 'standards.assigned');
    expect(event).toMatchObject({
      actorUserId: s.people.admin.id,
      subjectType: 'std_assessment',
      subjectId: String(s.assessmentId),
      data: { node_id: s.nodes.GOV, owner_id: s.people.owner2.id, elements: 3 },
    });
    // An element's own node works as well; null takes the owner away.
    const cleared = await s.admin.put(url, { node_id: s.nodes['GOV.1.2'], owner_id: null });
    expect(cleared.statusCode).toBe(200);
    expect((await readElement(s.admin, s.base, s.reqs['GOV.1.2'])).owner).toBeNull();

    const theirs = await createAssessment(db(), s.admin, s.base, s.framework.id, { name: 'Other assessment' });
    const agents = await agentsOf(ctx, s, ['owner', 'contributor', 'viewer']);
    const before = await standardsSnapshot(db());
    const cases: [Record<string, unknown>, string, string][] = [
      [{ node_id: 999_999, owner_id: s.people.owner.id }, 'node_id', 'Choose a part of this assessment.'],
      [{ node_id: s.nodes.IC, owner_id: s.people.viewer.id }, 'owner_id', OWNING],
      [{ node_id: s.nodes.IC, owner_id: s.people.outsider.id }, 'owner_id', OWNING],
      [{ node_id: s.nodes.IC, lead_id: s.people.assessor.id }, 'lead_id', OWNING],
      [{ node_id: s.nodes.IC }, 'owner_id', 'Choose a lead or an owner.'],
    ];
    for (const [body, field, message] of cases) {
      const refused = await s.admin.put(url, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().errors[field], JSON.stringify(body)).toEqual([message]);
    }
    for (const [who, agent] of Object.entries(agents)) {
      const refused = await agent.put(url, { node_id: s.nodes.IC, owner_id: s.people.owner.id });
      expect(refused.statusCode, who).toBe(403);
    }
    expect(await standardsSnapshot(db())).toEqual(before);
    // The other assessment of the same framework is untouched by all of this.
    const [other] = await db()
      .select()
      .from(stdReqAssessments)
      .where(eq(stdReqAssessments.id, theirs.reqs['GOV.1.1']!));
    expect(other!.ownerId).toBeNull();
  });

  it('sets a lead, who may then change and assign the elements below that node only', async () => {
    const s = await standardsSetup(ctx);
    const url = `${s.base}/assessments/${s.assessmentId}/assignments`;
    const lead = await ctx.signedIn(s.people.lead);
    expect((await saveElement(lead, s.base, s.reqs['OB.1'], { result: 'compliant' })).statusCode).toBe(403);
    const set = await s.admin.put(url, { node_id: s.nodes.OB, lead_id: s.people.lead.id });
    expect(set.statusCode, set.body).toBe(200);
    const ob = (set.json() as StdAssignments).rows.find((r) => r.ref_id === 'OB')!;
    expect(ob.lead).toEqual({ id: s.people.lead.id, name: 'Leo Lead' });
    expect(ob.unowned).toBe(1); // a lead is not an owner
    const leads = await db().select().from(stdLeads).where(eq(stdLeads.nodeId, s.nodes.OB));
    expect(leads).toMatchObject([
      { userId: s.people.lead.id, assessmentId: s.assessmentId, createdBy: s.people.admin.id },
    ]);

    const saved = await saveElement(lead, s.base, s.reqs['OB.1'], { result: 'compliant' });
    expect(saved.statusCode, saved.body).toBe(200);
    // The lead assigns owners below the nodes they lead...
    const assigned = await lead.put(url, { node_id: s.nodes.OB, owner_id: s.people.owner.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect((await readElement(lead, s.base, s.reqs['OB.1'])).owner?.id).toBe(s.people.owner.id);
    // ...and nowhere else.
    const before = await standardsSnapshot(db());
    expect((await saveElement(lead, s.base, s.reqs['GOV.1.1'], { result: 'compliant' })).statusCode).toBe(403);
    const elsewhere = await lead.put(url, { node_id: s.nodes.GOV, owner_id: s.people.owner2.id });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe('You can assign people only below the chapters you lead.');
    expect(await standardsSnapshot(db())).toEqual(before);

    // Replacing the lead hands the node over.
    const replaced = await s.admin.put(url, { node_id: s.nodes.OB, lead_id: null });
    expect(replaced.statusCode).toBe(200);
    expect((replaced.json() as StdAssignments).rows.find((r) => r.ref_id === 'OB')!.lead).toBeNull();
    expect((await saveElement(lead, s.base, s.reqs['OB.1'], { result: 'non_compliant' })).statusCode).toBe(403);
  });

  it("lists only the actor's elements, overdue first, with counts", async () => {
    const s = await standardsSetup(ctx);
    const day = (offset: number) =>
      new Date(ctx.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const save = async (id: number, changes: Record<string, unknown>) => {
      const saved = await saveElement(s.admin, s.base, id, changes);
      expect(saved.statusCode, saved.body).toBe(200);
    };
    await save(s.reqs['GOV.1.1'], { due_date: day(10) });
    await save(s.reqs['GOV.1.2'], { due_date: day(-3), status: 'in_progress' });
    const second = await createAssessment(db(), s.admin, s.base, s.framework.id, {
      name: 'Mock survey',
      owners: [{ node_id: s.nodes['GOV.2'], user_id: s.people.owner.id }],
    });
    await save(second.reqs['GOV.1.1']!, { due_date: day(60) });

    const owner = await ctx.signedIn(s.people.owner);
    const answer = await owner.get(`${s.base}/my`);
    expect(answer.statusCode, answer.body).toBe(200);
    const my = answer.json() as StdMy;
    expect(my.role).toBe('owner');
    expect(my.elements.map((e) => [e.assessment.name, e.ref_id, e.due_date, e.overdue])).toEqual([
      ['Self-assessment 2026', 'GOV.1.2', day(-3), true],
      ['Self-assessment 2026', 'GOV.1.1', day(10), false],
      ['Mock survey', 'GOV.2.1', null, false],
    ]);
    expect(my.elements[0]).toMatchObject({
      req_id: s.reqs['GOV.1.2'],
      assessment: { id: s.assessmentId },
      title: 'Minutes are kept',
      result: 'not_assessed',
      status: 'in_progress',
    });
    expect(my.counts).toEqual({ owned: 3, overdue: 1, due_30: 1, open: 3 });
    await saveElement(owner, s.base, second.reqs['GOV.2.1']!, { result: 'compliant', status: 'done' });
    expect(((await owner.get(`${s.base}/my`)).json() as StdMy).counts).toEqual({
      owned: 3,
      overdue: 1,
      due_30: 1,
      open: 2,
    });
    // Others see their own only.
    const contributor = ((await (await ctx.signedIn(s.people.contributor)).get(`${s.base}/my`)).json() as StdMy)
      .elements;
    expect(contributor.map((e) => e.req_id)).toEqual([s.reqs['GOV.2.1']]);
    const admin = (await s.admin.get(`${s.base}/my`)).json() as StdMy;
    expect(admin).toEqual({
      role: 'standards_admin',
      elements: [],
      counts: { owned: 0, overdue: 0, due_30: 0, open: 0 },
    });
  });
});
