import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createUser } from '../../../test/factories.js';
import { expectStatuses } from '../../../test/guards-kit.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import {
  auditEvents,
  monInsights,
  monPagePermissions,
  monRequests,
  monRoleMembers,
  monRoles,
  monUsers,
  projectMemberRoles,
  userRequests,
} from '../../db/schema/index.js';

// Monitoring users, their main roles and new-user requests: modules/people/people.test.ts, as for every app.
describe('the main-role dashboard and monitoring roles', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await monitoringProject(db());
    projectId = s.project.id;
    // A member who does not take part in monitoring yet.
    const newcomer = await createUser(db(), { firstName: 'Nina', lastName: 'New' });
    await addMember(db(), s.project.id, newcomer.id, 'simple');
    const [role] = await db()
      .insert(monRoles)
      .values({ projectId: s.project.id, name: 'Infection control', description: 'IPC team' })
      .returning();
    await db().insert(monRoleMembers).values({ projectId: s.project.id, roleId: role!.id, userId: s.people.owner.id });
    return {
      ...s,
      newcomer,
      role: role!,
      base: `/api/projects/${s.project.id}/monitoring`,
      admin: await ctx.signedIn(s.people.admin),
    };
  }

  /** This test's events (the database is shared by the tests of the file; each builds its own project). */
  let projectId = 0;
  const auditsOf = (action: string) =>
    db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, projectId), eq(auditEvents.action, action)));
  const snapshot = async () => ({
    users: await db().select().from(monUsers),
    roles: await db().select().from(projectMemberRoles),
    monRoles: await db().select().from(monRoles),
    members: await db().select().from(monRoleMembers),
    grants: await db().select().from(monPagePermissions),
    requests: await db().select().from(userRequests),
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
  });

  it('guards every call: 401 signed out, 403 without a role or as a viewer, 404 outside; nothing changes', async () => {
    const s = await setup();
    const calls = [
      ['get', `${s.base}/main-role-dashboard`],
      ['get', `${s.base}/roles`],
      ['post', `${s.base}/roles`, { name: 'Quality', description: '', member_ids: [] }],
      ['put', `${s.base}/roles/${s.role.id}`, { name: 'Renamed', description: '', member_ids: [] }],
      ['delete', `${s.base}/roles/${s.role.id}`],
    ] as const;
    const agents = {
      anonymous: await ctx.anonymous(),
      ...(await ctx.signedInAll(s.people, 'noRole', 'viewer', 'owner', 'outsider')),
    };
    const before = await snapshot();
    await expectStatuses(agents, calls, () => [
      ['anonymous', 401],
      ['noRole', 403],
      ['viewer', 403],
      ['owner', 403],
      ['outsider', 404],
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('shows each main role with its people and their open work, and who has no main role', async () => {
    const s = await setup();
    const p = s.project.id;
    const withInsight = await insertPage(db(), p, { title: 'Hand hygiene', ownerId: s.people.owner.id });
    await insertPage(db(), p, { title: 'Falls', ownerId: s.people.owner.id, status: 'draft' });
    await insertPage(db(), p, { title: 'Sepsis', ownerId: s.people.owner.id, deletedAt: new Date() });
    await insertPage(db(), p, { title: 'Orphan' });
    await db()
      .insert(monInsights)
      .values([{ projectId: p, pageId: withInsight.id, title: 'Better', status: 'published' }]);
    const request = (values: Partial<typeof monRequests.$inferInsert>) => ({
      projectId: p,
      title: 'Data',
      purpose: 'Audit',
      format: 'csv',
      ...values,
    });
    await db()
      .insert(monRequests)
      .values([
        request({ requesterId: s.people.viewer.id }),
        request({ requesterId: s.people.viewer.id, status: 'delivered' }),
        request({ requesterId: s.people.viewer.id, assigneeId: s.people.dataEntry.id, status: 'in_progress' }),
        request({ requesterId: s.people.owner.id, assigneeId: s.people.dataEntry.id, status: 'closed' }),
        { ...request({ requesterId: s.people.viewer.id }), projectId: s.other.id },
      ]);
    await s.admin.post(`${s.base}/users/assign`, { user_ids: [s.newcomer.id] });

    const answer = await s.admin.get(`${s.base}/main-role-dashboard`);
    expect(answer.statusCode, answer.body).toBe(200);
    const work = (role: string) =>
      answer
        .json()
        .roles.find((r: { role: string }) => r.role === role)
        .people.map((person: { name: string; work: { kind: string; count: number }[] }) => [
          person.name,
          Object.fromEntries(person.work.map((w) => [w.kind, w.count])),
        ]);
    expect(answer.json().roles.map((r: { role: string }) => r.role)).toEqual([
      'monitoring_admin',
      'page_owner',
      'data_entry',
      'viewer',
    ]);
    expect(work('monitoring_admin')).toEqual([['Ada Admin', { unassigned_requests: 1, pages_without_owner: 1 }]]);
    expect(work('page_owner')).toEqual([['Owen Owner', { pages_without_insight: 1, draft_pages: 1 }]]);
    expect(work('data_entry')).toEqual([['Dana Entry', { assigned_requests: 1 }]]);
    expect(work('viewer')).toEqual([['Vera Viewer', { own_open_requests: 2 }]]);
    expect(answer.json().without_role).toEqual([
      { id: s.newcomer.id, name: 'Nina New', username: s.newcomer.username },
    ]);
    // Counts only: no page title reaches the dashboard.
    expect(answer.body).not.toContain('Falls');
  });

  describe('monitoring roles', () => {
    it('lists, creates, updates and deletes roles with their members and grant counts; audits each', async () => {
      const s = await setup();
      const page = await insertPage(db(), s.project.id, { title: 'Infections' });
      await db()
        .insert(monPagePermissions)
        .values({ projectId: s.project.id, pageId: page.id, roleId: s.role.id, level: 'view' });
      const list = await s.admin.get(`${s.base}/roles`);
      expect(list.statusCode).toBe(200);
      expect(list.json().roles).toMatchObject([
        {
          id: s.role.id,
          name: 'Infection control',
          description: 'IPC team',
          members: [{ id: s.people.owner.id, name: 'Owen Owner' }],
          grant_count: 1,
        },
      ]);

      const created = await s.admin.post(`${s.base}/roles`, {
        name: '  Data stewards ',
        description: 'Import the data',
        member_ids: [s.people.viewer.id, s.people.dataEntry.id],
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({
        name: 'Data stewards',
        description: 'Import the data',
        members: [
          { id: s.people.dataEntry.id, name: 'Dana Entry' },
          { id: s.people.viewer.id, name: 'Vera Viewer' },
        ],
        grant_count: 0,
      });
      const roleId = created.json().id;
      const [createdAudit] = await auditsOf('monitoring.role_created');
      expect(createdAudit).toMatchObject({ subjectType: 'mon_role', subjectId: String(roleId) });

      const updated = await s.admin.put(`${s.base}/roles/${roleId}`, {
        name: 'Data team',
        description: '',
        member_ids: [s.people.viewer.id, s.people.admin.id],
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json().members.map((m: { name: string }) => m.name)).toEqual(['Ada Admin', 'Vera Viewer']);
      const [updatedAudit] = await auditsOf('monitoring.role_updated');
      expect(updatedAudit!.data).toMatchObject({
        name: { from: 'Data stewards', to: 'Data team' },
        members: { added: [s.people.admin.id], removed: [s.people.dataEntry.id] },
      });
      // Keeping its own name (in another case) is no clash.
      expect((await s.admin.put(`${s.base}/roles/${roleId}`, { name: 'DATA TEAM', member_ids: [] })).statusCode).toBe(
        200,
      );

      const deleted = await s.admin.delete(`${s.base}/roles/${s.role.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json()).toEqual({ deleted: s.role.id, grants_removed: 1 });
      expect(await db().select().from(monPagePermissions)).toEqual([]);
      expect(await db().select().from(monRoleMembers).where(eq(monRoleMembers.roleId, s.role.id))).toEqual([]);
      const [deletedAudit] = await auditsOf('monitoring.role_deleted');
      expect(deletedAudit!.data).toMatchObject({ name: 'Infection control' });
      expect((await s.admin.get(`${s.base}/roles`)).json().roles.map((r: { name: string }) => r.name)).toEqual([
        'DATA TEAM',
      ]);
    });

    it('refuses a taken name (any case), bad fields, non-monitoring members and roles of other projects', async () => {
      const s = await setup();
      const [foreign] = await db().insert(monRoles).values({ projectId: s.other.id, name: 'Foreign' }).returning();
      const before = await snapshot();
      const taken = await s.admin.post(`${s.base}/roles`, { name: 'INFECTION CONTROL', member_ids: [] });
      expect(taken.statusCode).toBe(400);
      expect(taken.json().errors).toEqual({ name: ['A monitoring role with this name already exists.'] });
      // A name used in another project is free here.
      const blank = await s.admin.post(`${s.base}/roles`, {
        name: ' ',
        description: 'x'.repeat(501),
        member_ids: [s.people.owner.id, s.people.owner.id],
      });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().errors).toEqual({
        name: ['Enter a name.'],
        description: ['A description is at most 500 characters.'],
        member_ids: ['A person is listed twice.'],
      });
      const long = await s.admin.post(`${s.base}/roles`, { name: 'x'.repeat(81) });
      expect(long.json().errors.name).toEqual(['A name is at most 80 characters.']);
      const outsiders = await s.admin.post(`${s.base}/roles`, {
        name: 'Quality',
        member_ids: [s.people.owner.id, s.people.noRole.id, s.people.outsider.id],
      });
      expect(outsiders.statusCode).toBe(400);
      expect(outsiders.json().errors).toEqual({
        'member_ids.1': ['This person does not take part in monitoring.'],
        'member_ids.2': ['This person does not take part in monitoring.'],
      });
      const [other] = await db().insert(monRoles).values({ projectId: s.project.id, name: 'Quality' }).returning();
      const rename = await s.admin.put(`${s.base}/roles/${other!.id}`, { name: 'infection Control' });
      expect(rename.statusCode).toBe(400);
      expect(rename.json().errors.name).toEqual(['A monitoring role with this name already exists.']);
      await db().delete(monRoles).where(eq(monRoles.id, other!.id));
      for (const answer of [
        await s.admin.put(`${s.base}/roles/${foreign!.id}`, { name: 'Mine now' }),
        await s.admin.delete(`${s.base}/roles/${foreign!.id}`),
        await s.admin.delete(`${s.base}/roles/999999`),
      ]) {
        expect(answer.statusCode).toBe(404);
      }
      expect((await s.admin.post(`${s.base}/roles`, { name: 'Foreign' })).statusCode).toBe(201);
      await db()
        .delete(monRoles)
        .where(and(eq(monRoles.projectId, s.project.id), eq(monRoles.name, 'Foreign')));
      const after = await snapshot();
      expect({ ...after, audit: before.audit }).toEqual(before);
    });
  });
});
