import { ACCESS_DENIED } from '@portal/shared';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createUser, setMainRole } from '../../../test/factories.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import {
  auditEvents,
  monInsights,
  monPagePermissions,
  monRequests,
  monRoleMembers,
  monRoles,
  monUsers,
  notifications,
  projectMemberRoles,
  userRequests,
} from '../../db/schema/index.js';

describe('monitoring users, main roles, the dashboard, new-user requests and monitoring roles', () => {
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

  const names = (answer: { json(): { users: { name: string }[] } }) => answer.json().users.map((u) => u.name);
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
    const request = {
      first_name: 'Sam',
      last_name: 'Steward',
      email: 'sam@example.org',
      main_role: 'data_entry',
      justification: 'Enters the infection data.',
    };
    const calls = [
      ['get', `${s.base}/users/unassigned`],
      ['get', `${s.base}/users`],
      ['post', `${s.base}/users/assign`, { user_ids: [s.newcomer.id] }],
      ['post', `${s.base}/users/update`, { user_ids: [s.people.admin.id] }],
      ['put', `${s.base}/users/${s.people.owner.id}/main-role`, { main_role: 'viewer' }],
      ['post', `${s.base}/users/main-role/bulk`, { items: [{ user_id: s.people.owner.id, main_role: 'viewer' }] }],
      ['get', `${s.base}/main-role-dashboard`],
      ['get', `${s.base}/user-requests`],
      ['post', `${s.base}/user-requests`, request],
      ['get', `${s.base}/roles`],
      ['post', `${s.base}/roles`, { name: 'Quality', description: '', member_ids: [] }],
      ['put', `${s.base}/roles/${s.role.id}`, { name: 'Renamed', description: '', member_ids: [] }],
      ['delete', `${s.base}/roles/${s.role.id}`],
    ] as const;
    const anonymous = ctx.agent();
    await anonymous.csrf();
    const agents = {
      anonymous,
      noRole: await ctx.signedIn(s.people.noRole),
      viewer: await ctx.signedIn(s.people.viewer),
      owner: await ctx.signedIn(s.people.owner),
      outsider: await ctx.signedIn(s.people.outsider),
    };
    const before = await snapshot();
    for (const [method, url, body] of calls) {
      for (const [who, status] of [
        ['anonymous', 401],
        ['noRole', 403],
        ['viewer', 403],
        ['owner', 403],
        ['outsider', 404],
      ] as const) {
        const agent = agents[who];
        const answer =
          method === 'get' || method === 'delete' ? await agent[method](url) : await agent[method](url, body);
        expect(answer.statusCode, `${method} ${url} as ${who}`).toBe(status);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('adds members; replacing the list takes the main role, role memberships and own grants away', async () => {
    const s = await setup();
    expect(names(await s.admin.get(`${s.base}/users/unassigned`))).toEqual(['Nina New', 'Nora None']);
    expect(names(await s.admin.get(`${s.base}/users`))).toEqual([
      'Ada Admin',
      'Dana Entry',
      'Owen Owner',
      'Vera Viewer',
    ]);
    const added = await s.admin.post(`${s.base}/users/assign`, { user_ids: [s.newcomer.id] });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().users.find((u: { name: string }) => u.name === 'Nina New')).toMatchObject({
      main_role: null,
      monitoring_user: true,
    });
    const [addedAudit] = await auditsOf('monitoring.users_added');
    expect(addedAudit).toMatchObject({ projectId: s.project.id, actorUserId: s.people.admin.id });
    expect(addedAudit!.data).toEqual({ user_ids: [s.newcomer.id] });

    // Bad input, per index and per field.
    const stranger = await s.admin.post(`${s.base}/users/assign`, { user_ids: [s.newcomer.id, s.people.outsider.id] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().errors).toEqual({ 'user_ids.1': ['This person is not a member of the project.'] });
    const twice = await s.admin.post(`${s.base}/users/assign`, { user_ids: [1, 1] });
    expect(twice.json().errors.user_ids).toEqual(['A person is listed twice.']);
    const none = await s.admin.post(`${s.base}/users/assign`, { user_ids: [] });
    expect(none.json().errors.user_ids).toEqual(['Choose at least one person.']);
    const extra = await s.admin.post(`${s.base}/users/update`, { user_ids: [], everyone: true });
    expect(extra.statusCode).toBe(400);

    // The owner has a role membership and a grant of their own; leaving monitoring takes both away.
    const page = await insertPage(db(), s.project.id, { title: 'Infections' });
    await db()
      .insert(monPagePermissions)
      .values({ projectId: s.project.id, pageId: page.id, userId: s.people.owner.id, level: 'edit' });
    const updated = await s.admin.post(`${s.base}/users/update`, {
      user_ids: [s.people.admin.id, s.newcomer.id, s.people.viewer.id, s.people.dataEntry.id],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(names(updated)).toEqual(['Ada Admin', 'Dana Entry', 'Nina New', 'Vera Viewer']);
    const ownerRows = async () => ({
      role: await db()
        .select()
        .from(projectMemberRoles)
        .where(and(eq(projectMemberRoles.userId, s.people.owner.id), eq(projectMemberRoles.app, 'monitoring'))),
      members: await db().select().from(monRoleMembers).where(eq(monRoleMembers.userId, s.people.owner.id)),
      grants: await db().select().from(monPagePermissions).where(eq(monPagePermissions.userId, s.people.owner.id)),
    });
    expect(await ownerRows()).toEqual({ role: [], members: [], grants: [] });
    const [updatedAudit] = await auditsOf('monitoring.users_updated');
    expect(updatedAudit!.data).toEqual({ added: [], removed: [s.people.owner.id] });
    const owner = await ctx.signedIn(s.people.owner);
    const denied = await owner.get(`${s.base}/users`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(ACCESS_DENIED.unconfigured.monitoring);

    // Nobody removes themselves.
    const before = await snapshot();
    const self = await s.admin.post(`${s.base}/users/update`, { user_ids: [s.newcomer.id] });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe(
      'You cannot remove yourself from monitoring; ask another monitoring administrator.',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('a monitoring main role given anywhere makes the member a monitoring user', async () => {
    const s = await setup();
    // The Admin app's member editor writes main roles through writeMainRoles too.
    const { writeMainRoles } = await import('../members/members.service.js');
    await writeMainRoles(
      db(),
      s.project.id,
      s.newcomer.id,
      { monitoring: 'viewer' },
      {
        userId: s.people.admin.id,
        ip: null,
        requestId: null,
      },
      ctx.clock.now(),
    );
    expect(names(await s.admin.get(`${s.base}/users`))).toContain('Nina New');
  });

  it('sets main roles one by one and in bulk; never one own role; only monitoring users', async () => {
    const s = await setup();
    await s.admin.post(`${s.base}/users/assign`, { user_ids: [s.newcomer.id] });
    const one = await s.admin.put(`${s.base}/users/${s.newcomer.id}/main-role`, { main_role: 'data_entry' });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ name: 'Nina New', main_role: 'data_entry', monitoring_user: true });
    const newcomer = await ctx.signedIn(s.newcomer);
    expect((await newcomer.get(`${s.base}/main-role-dashboard`)).statusCode).toBe(403);
    const [oneAudit] = await auditsOf('monitoring.main_roles_changed');
    expect(oneAudit!.data).toEqual({ changes: [{ user_id: s.newcomer.id, from: null, to: 'data_entry' }] });

    const own = await s.admin.put(`${s.base}/users/${s.people.admin.id}/main-role`, { main_role: 'viewer' });
    expect(own.statusCode).toBe(409);
    const notMonitoring = await s.admin.put(`${s.base}/users/${s.people.noRole.id}/main-role`, {
      main_role: 'viewer',
    });
    expect(notMonitoring.statusCode).toBe(404);
    const badRole = await s.admin.put(`${s.base}/users/${s.newcomer.id}/main-role`, { main_role: 'boss' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().errors.main_role).toEqual(['Choose a main role.']);
    const badId = await s.admin.put(`${s.base}/users/abc/main-role`, { main_role: 'viewer' });
    expect(badId.statusCode).toBe(400);

    const bulk = await s.admin.post(`${s.base}/users/main-role/bulk`, {
      items: [
        { user_id: s.newcomer.id, main_role: 'page_owner' },
        { user_id: s.people.viewer.id, main_role: null },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().users.map((u: { name: string; main_role: string }) => [u.name, u.main_role])).toEqual([
      ['Ada Admin', 'monitoring_admin'],
      ['Dana Entry', 'data_entry'],
      ['Nina New', 'page_owner'],
      ['Owen Owner', 'page_owner'],
      ['Vera Viewer', null],
    ]);
    const before = await snapshot();
    const mixed = await s.admin.post(`${s.base}/users/main-role/bulk`, {
      items: [
        { user_id: s.newcomer.id, main_role: 'viewer' },
        { user_id: s.people.noRole.id, main_role: 'viewer' },
        { user_id: s.people.admin.id, main_role: 'viewer' },
      ],
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors).toEqual({
      'items.1': ['This person does not take part in monitoring.'],
      'items.2': ['You cannot change your own role; ask another monitoring administrator.'],
    });
    const twice = await s.admin.post(`${s.base}/users/main-role/bulk`, {
      items: [
        { user_id: s.newcomer.id, main_role: 'viewer' },
        { user_id: s.newcomer.id, main_role: 'viewer' },
      ],
    });
    expect(twice.json().errors.items).toEqual(['A person is listed twice.']);
    const badItem = await s.admin.post(`${s.base}/users/main-role/bulk`, {
      items: [{ user_id: s.newcomer.id, main_role: 'boss' }],
    });
    expect(badItem.json().errors['items.0.main_role']).toEqual(['Choose a main role.']);
    expect(await snapshot()).toEqual(before);
    expect(await auditsOf('monitoring.main_roles_changed')).toHaveLength(2);
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

  describe('new-user requests', () => {
    const valid = {
      first_name: 'Sam',
      last_name: 'Steward',
      email: 'Sam.Steward@Example.org',
      main_role: 'data_entry',
      justification: 'Enters the infection data from next month.',
    };

    it('refuses bad input with a message per field; nothing is filed', async () => {
      const s = await setup();
      const invalid = await s.admin.post(`${s.base}/user-requests`, {
        first_name: ' ',
        email: 'not-an-email',
        main_role: 'policy_admin',
        justification: '   ',
      });
      expect(invalid.statusCode).toBe(400);
      const { errors } = invalid.json();
      expect(errors.first_name).toEqual(['Enter the first name.']);
      expect(errors.last_name).toBeDefined();
      expect(errors.email).toEqual(['Enter a valid email address.']);
      expect(errors.main_role).toEqual(['Choose a main role.']);
      expect(errors.justification).toEqual(['Enter the justification.']);
      const extra = await s.admin.post(`${s.base}/user-requests`, { ...valid, project_role: 'admin' });
      expect(extra.statusCode).toBe(400);
      const member = await s.admin.post(`${s.base}/user-requests`, { ...valid, email: s.people.noRole.email });
      expect(member.statusCode).toBe(409);
      expect(member.json().message).toBe(
        `${s.people.noRole.email.toLowerCase()} is already a member of this project: add them under Monitoring users.`,
      );
      expect(await db().select().from(userRequests)).toEqual([]);
    });

    it('files a request with the monitoring main role, audits it and lists only monitoring requests', async () => {
      const s = await setup();
      await ctx.signedIn(await createUser(db(), { role: 'superadmin' }));
      const filed = await s.admin.post(`${s.base}/user-requests`, valid);
      expect(filed.statusCode, filed.body).toBe(201);
      expect(filed.json()).toMatchObject({
        email: 'sam.steward@example.org',
        project_role: 'simple',
        main_roles: { monitoring: 'data_entry', policy_management: null, chart_review: null },
        status: 'pending',
        requested_by: { id: s.people.admin.id, name: 'Ada Admin' },
      });
      const [audit] = await auditsOf('user_request.create');
      expect(audit).toMatchObject({
        projectId: s.project.id,
        actorUserId: s.people.admin.id,
        data: { main_roles: { monitoring: 'data_entry' } },
      });
      await db()
        .insert(userRequests)
        .values([
          {
            projectId: s.project.id,
            firstName: 'Pol',
            lastName: 'Icy',
            email: 'pol@example.org',
            projectRole: 'simple',
            mainRoles: { policy_management: 'reader' },
            justification: 'Reads.',
          },
          {
            projectId: s.other.id,
            firstName: 'Ole',
            lastName: 'Other',
            email: 'ole@example.org',
            projectRole: 'simple',
            mainRoles: { monitoring: 'viewer' },
            justification: 'Views.',
          },
        ]);
      const list = await s.admin.get(`${s.base}/user-requests`);
      expect(list.statusCode).toBe(200);
      expect(list.json().requests.map((r: { email: string }) => r.email)).toEqual(['sam.steward@example.org']);
    });

    it('sends a monitoring administrator who is not a project admin to create-user for the decision', async () => {
      const s = await setup();
      const superadmin = await createUser(db(), { role: 'superadmin' });
      const steward = await createUser(db(), { firstName: 'Mia', lastName: 'Monitor' });
      await addMember(db(), s.project.id, steward.id, 'simple');
      await setMainRole(db(), s.project.id, steward.id, 'monitoring', 'monitoring_admin');
      const filed = await (await ctx.signedIn(steward)).post(`${s.base}/user-requests`, valid);
      expect(filed.statusCode, filed.body).toBe(201);
      const byAdmin = await s.admin.post(`${s.base}/user-requests`, { ...valid, email: 'other@example.org' });
      const su = await ctx.signedIn(superadmin);
      expect((await su.post(`/super/user-requests/${filed.json().id}/approve`, {})).statusCode).toBe(200);
      expect(
        (await su.post(`/super/user-requests/${byAdmin.json().id}/reject`, { reason: 'Unknown' })).statusCode,
      ).toBe(200);
      const linkFor = async (userId: number) =>
        (await db().select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.link);
      expect(await linkFor(steward.id)).toEqual([`/app/monitoring/${s.project.id}/create-user`]);
      expect(await linkFor(s.people.admin.id)).toEqual([`/app/admin/${s.project.id}/new-user-request`]);
    });
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
