import { ACCESS_DENIED } from '@portal/shared';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createUser, setMainRole } from '../../../test/factories.js';
import { insertPage, monitoringProject } from '../../../test/monitoring-kit.js';
import { policyProject } from '../../../test/policy-kit.js';
import type { Database } from '../../db/client.js';
import {
  auditEvents,
  monPagePermissions,
  monRoleMembers,
  monRoles,
  monUsers,
  notifications,
  policyUsers,
  projectMemberRoles,
  userRequests,
} from '../../db/schema/index.js';
import { MONITORING_PEOPLE, type PeopleAppDescriptor, POLICY_PEOPLE } from './apps.js';

type User = Awaited<ReturnType<typeof createUser>>;
interface Project {
  project: { id: number };
  other: { id: number };
  people: { admin: User; noRole: User; outsider: User } & Record<string, User>;
}

/**
 * What differs between the apps for these tests: their fixtures and people, their calls, their roles and texts. The
 * same tests run for each (the calls' paths, sections and messages come from the app's descriptor, apps.ts).
 */
interface AppCase {
  d: PeopleAppDescriptor;
  kit: (db: Database) => Promise<Project>;
  /** People with a main role who may not manage the app's people. */
  lowRoles: string[];
  /** The app's users at the start, by name, and who leaves when the list is replaced. */
  users: string[];
  leaver: string;
  /** The calls (after `/api/projects/{id}/{app}/`). */
  paths: { unassigned: string; assigned: string; withoutRole?: string; withRole?: string };
  /** Two main roles of the app and a call the first one opens (proof that the role works). */
  roles: [string, string];
  opens: string;
  /** What the bulk call answers with: its users by [name, role] after the test's changes. */
  bulkAnswer: (roles: [string, string]) => [string, string | null][];
  /** Who the tests' own bulk change leaves without a role (the names in `withoutRole` after it). */
  withoutRoleAfterBulk?: string[];
  /** What else a leaver loses: sets it up before, reads it after (empty once gone). */
  alsoLost?: (db: Database, s: Project, leaver: User) => Promise<() => Promise<unknown[]>>;
  /** A request filed for another app (it is not listed here). */
  otherAppRole: Record<string, string>;
  /** The app's screen for its new-user requests (the notification link). */
  requestScreen: string;
  /** The app's users table (snapshots). */
  table: typeof policyUsers | typeof monUsers;
}

const CASES: AppCase[] = [
  {
    d: POLICY_PEOPLE,
    kit: policyProject,
    lowRoles: ['reader'],
    users: ['Ada Admin', 'Otto Author', 'Rita Reader'],
    leaver: 'author',
    paths: {
      unassigned: 'eligible-users/unassigned',
      assigned: 'eligible-users/assigned',
      withoutRole: 'pol-man-users/unassigned-main-role',
      withRole: 'pol-man-users/assigned-main-role',
    },
    roles: ['author', 'signer'],
    opens: 'documents',
    // The bulk call answers with the users who have a main role.
    bulkAnswer: ([, second]) => [
      ['Ada Admin', 'policy_admin'],
      ['Nina New', second],
      ['Otto Author', 'author'],
    ],
    withoutRoleAfterBulk: ['Rita Reader'],
    otherAppRole: { monitoring: 'viewer' },
    requestScreen: 'policy_management/{id}/create-project-user',
    table: policyUsers,
  },
  {
    d: MONITORING_PEOPLE,
    kit: monitoringProject,
    lowRoles: ['viewer', 'owner'],
    users: ['Ada Admin', 'Dana Entry', 'Owen Owner', 'Vera Viewer'],
    leaver: 'owner',
    paths: { unassigned: 'users/unassigned', assigned: 'users' },
    roles: ['data_entry', 'page_owner'],
    opens: 'pages',
    // The bulk call answers with every monitoring user.
    bulkAnswer: ([, second]) => [
      ['Ada Admin', 'monitoring_admin'],
      ['Dana Entry', 'data_entry'],
      ['Nina New', second],
      ['Owen Owner', 'page_owner'],
      ['Vera Viewer', null],
    ],
    // A role membership and a grant of their own: leaving monitoring takes both away.
    alsoLost: async (db, s, leaver) => {
      const [role] = await db
        .insert(monRoles)
        .values({ projectId: s.project.id, name: 'Infection control', description: 'IPC team' })
        .returning();
      await db.insert(monRoleMembers).values({ projectId: s.project.id, roleId: role!.id, userId: leaver.id });
      const page = await insertPage(db, s.project.id, { title: 'Infections' });
      await db
        .insert(monPagePermissions)
        .values({ projectId: s.project.id, pageId: page.id, userId: leaver.id, level: 'edit' });
      return async () => [
        ...(await db.select().from(monRoleMembers).where(eq(monRoleMembers.userId, leaver.id))),
        ...(await db.select().from(monPagePermissions).where(eq(monPagePermissions.userId, leaver.id))),
      ];
    },
    otherAppRole: { policy_management: 'reader' },
    requestScreen: 'monitoring/{id}/create-user',
    table: monUsers,
  },
];

describe.each(CASES)('$d.app: users, main roles and new-user requests', (c) => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const { d } = c;
  const [firstRole, secondRole] = c.roles;
  const flag = d.app === 'monitoring' ? 'monitoring_user' : 'policy_user';

  async function setup() {
    const s = await c.kit(db());
    projectId = s.project.id;
    // A member who does not take part in the app yet.
    const newcomer = await createUser(db(), { firstName: 'Nina', lastName: 'New' });
    await addMember(db(), s.project.id, newcomer.id, 'simple');
    const base = `/api/projects/${s.project.id}/${d.prefix.split('/').pop()}`;
    const call = (path: string, userId?: number) => `${base}/${path.replace(':userId', String(userId))}`;
    return {
      ...s,
      newcomer,
      base,
      at: {
        ...Object.fromEntries(Object.entries(c.paths).map(([key, path]) => [key, call(path)])),
        assign: call(d.assign.path),
        update: call(d.update.path),
        mainRole: (userId: number) => call(d.mainRole.path, userId),
        bulk: call(d.bulk.path),
        requests: call(d.userRequests.path),
      } as Record<keyof AppCase['paths'], string> & {
        assign: string;
        update: string;
        mainRole: (userId: number) => string;
        bulk: string;
        requests: string;
      },
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
    users: await db().select().from(c.table),
    roles: await db().select().from(projectMemberRoles),
    requests: await db().select().from(userRequests),
    audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
  });
  const request = (roles: [string, string]) => ({
    first_name: 'Sam',
    last_name: 'Steward',
    email: 'Sam.Steward@Example.org',
    main_role: roles[0],
    justification: 'Takes part from next month.',
  });

  it('guards every call: 401 signed out, 403 without a role or with a lesser one, 404 outside; nothing changes', async () => {
    const s = await setup();
    const someone = s.people[c.leaver]!.id;
    const calls = [
      ...Object.keys(c.paths).map((key) => ['get', s.at[key as keyof AppCase['paths']]] as const),
      ['post', s.at.assign, { user_ids: [s.newcomer.id] }],
      ['post', s.at.update, { user_ids: [s.people.admin.id] }],
      ['put', s.at.mainRole(someone), { main_role: secondRole }],
      ['post', s.at.bulk, { items: [{ user_id: someone, main_role: secondRole }] }],
      ['get', s.at.requests],
      ['post', s.at.requests, request(c.roles)],
    ] as const;
    const anonymous = await ctx.anonymous();
    const agents = [
      ['anonymous', anonymous, 401],
      ['noRole', await ctx.signedIn(s.people.noRole), 403],
      ...(await Promise.all(c.lowRoles.map(async (who) => [who, await ctx.signedIn(s.people[who]!), 403] as const))),
      ['outsider', await ctx.signedIn(s.people.outsider), 404],
    ] as const;
    const before = await snapshot();
    for (const [method, url, body] of calls) {
      for (const [who, agent, status] of agents) {
        const answer = method === 'get' ? await agent.get(url) : await agent[method](url, body);
        expect(answer.statusCode, `${method} ${url} as ${who}`).toBe(status);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('adds members; replacing the list takes the main role (and what the app ties to it) away', async () => {
    const s = await setup();
    const leaver = s.people[c.leaver]!;
    expect(names(await s.admin.get(s.at.unassigned))).toEqual(['Nina New', 'Nora None']);
    expect(names(await s.admin.get(s.at.assigned))).toEqual(c.users);
    const added = await s.admin.post(s.at.assign, { user_ids: [s.newcomer.id] });
    expect(added.statusCode, added.body).toBe(200);
    expect(names(added)).toEqual([...c.users, 'Nina New'].sort());
    expect(added.json().users.find((u: { name: string }) => u.name === 'Nina New')).toEqual({
      id: s.newcomer.id,
      username: s.newcomer.username,
      name: 'Nina New',
      email: s.newcomer.email,
      project_role: 'simple',
      main_role: null,
      [flag]: true,
    });
    if (s.at.withoutRole) expect(names(await s.admin.get(s.at.withoutRole))).toEqual(['Nina New']);
    const [addedAudit] = await auditsOf(`${d.auditPrefix}.users_added`);
    expect(addedAudit).toMatchObject({ projectId: s.project.id, actorUserId: s.people.admin.id });
    expect(addedAudit!.data).toEqual({ user_ids: [s.newcomer.id] });
    // Adding again changes nothing.
    expect((await s.admin.post(s.at.assign, { user_ids: [s.newcomer.id] })).statusCode).toBe(200);
    expect(await auditsOf(`${d.auditPrefix}.users_added`)).toHaveLength(1);

    // Bad input, per index and per field.
    const stranger = await s.admin.post(s.at.assign, { user_ids: [s.newcomer.id, s.people.outsider.id] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().errors).toEqual({ 'user_ids.1': ['This person is not a member of the project.'] });
    const twice = await s.admin.post(s.at.assign, { user_ids: [1, 1] });
    expect(twice.json().errors.user_ids).toEqual(['A person is listed twice.']);
    const none = await s.admin.post(s.at.assign, { user_ids: [] });
    expect(none.json().errors.user_ids).toEqual(['Choose at least one person.']);
    const extra = await s.admin.post(s.at.update, { user_ids: [], everyone: true });
    expect(extra.statusCode).toBe(400);

    const lost = await c.alsoLost?.(db(), s, leaver);
    const stay = c.users.filter((name) => name !== `${leaver.firstName} ${leaver.lastName}`);
    const stayIds = Object.values(s.people)
      .filter((p) => stay.includes(`${p.firstName} ${p.lastName}`))
      .map((p) => p.id);
    const updated = await s.admin.post(s.at.update, { user_ids: [...stayIds, s.newcomer.id] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(names(updated)).toEqual([...stay, 'Nina New'].sort());
    const leaverRole = await db()
      .select()
      .from(projectMemberRoles)
      .where(and(eq(projectMemberRoles.userId, leaver.id), eq(projectMemberRoles.app, d.app)));
    expect(leaverRole).toEqual([]);
    if (lost) expect(await lost()).toEqual([]);
    const [updatedAudit] = await auditsOf(`${d.auditPrefix}.users_updated`);
    expect(updatedAudit!.data).toEqual({ added: [], removed: [leaver.id] });
    const gone = await ctx.signedIn(leaver);
    const denied = await gone.get(`${s.base}/${c.opens}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(ACCESS_DENIED.unconfigured[d.app]);

    // Nobody removes themselves.
    const before = await snapshot();
    const self = await s.admin.post(s.at.update, { user_ids: [s.newcomer.id] });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe(`You cannot remove yourself from ${d.names.app}; ask another ${d.names.admin}.`);
    expect(await snapshot()).toEqual(before);
  });

  it('a main role given anywhere makes the member a user of the app', async () => {
    const s = await setup();
    // The Admin app's member editor writes main roles through writeMainRoles too.
    const { writeMainRoles } = await import('../members/members.service.js');
    const who = { userId: s.people.admin.id, ip: null, requestId: null };
    await writeMainRoles(db(), s.project.id, s.newcomer.id, { [d.app]: firstRole }, who, ctx.clock.now());
    expect(names(await s.admin.get(s.at.assigned))).toContain('Nina New');
  });

  it('sets main roles one by one and in bulk; never one own role; only users of the app', async () => {
    const s = await setup();
    await s.admin.post(s.at.assign, { user_ids: [s.newcomer.id] });
    const one = await s.admin.put(s.at.mainRole(s.newcomer.id), { main_role: firstRole });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ name: 'Nina New', main_role: firstRole, [flag]: true });
    const newcomer = await ctx.signedIn(s.newcomer);
    expect((await newcomer.get(`${s.base}/${c.opens}`)).statusCode).toBe(200);
    const [oneAudit] = await auditsOf(`${d.auditPrefix}.main_roles_changed`);
    expect(oneAudit!.data).toEqual({ changes: [{ user_id: s.newcomer.id, from: null, to: firstRole }] });

    const own = await s.admin.put(s.at.mainRole(s.people.admin.id), { main_role: secondRole });
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe(`You cannot change your own role; ask another ${d.names.admin}.`);
    const notUser = await s.admin.put(s.at.mainRole(s.people.noRole.id), { main_role: secondRole });
    expect(notUser.statusCode).toBe(404);
    expect(notUser.json().message).toBe(`This person does not take part in ${d.names.app}.`);
    const badRole = await s.admin.put(s.at.mainRole(s.newcomer.id), { main_role: 'boss' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().errors.main_role).toEqual(['Choose a main role.']);
    for (const id of ['abc', '2147483648']) {
      expect((await s.admin.put(s.at.mainRole(id as never), { main_role: secondRole })).statusCode).toBe(400);
    }

    const lowest = s.people[c.lowRoles[0]!]!;
    const bulk = await s.admin.post(s.at.bulk, {
      items: [
        { user_id: s.newcomer.id, main_role: secondRole },
        { user_id: lowest.id, main_role: null },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().users.map((u: { name: string; main_role: string }) => [u.name, u.main_role])).toEqual(
      c.bulkAnswer(c.roles),
    );
    if (s.at.withoutRole) expect(names(await s.admin.get(s.at.withoutRole))).toEqual(c.withoutRoleAfterBulk);
    if (s.at.withRole) {
      expect(names(await s.admin.get(s.at.withRole))).toEqual(c.bulkAnswer(c.roles).map(([name]) => name));
    }
    const before = await snapshot();
    const mixed = await s.admin.post(s.at.bulk, {
      items: [
        { user_id: s.newcomer.id, main_role: firstRole },
        { user_id: s.people.noRole.id, main_role: firstRole },
        { user_id: s.people.admin.id, main_role: firstRole },
      ],
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors).toEqual({
      'items.1': [`This person does not take part in ${d.names.app}.`],
      'items.2': [`You cannot change your own role; ask another ${d.names.admin}.`],
    });
    const twice = await s.admin.post(s.at.bulk, {
      items: [
        { user_id: s.newcomer.id, main_role: firstRole },
        { user_id: s.newcomer.id, main_role: firstRole },
      ],
    });
    expect(twice.json().errors.items).toEqual(['A person is listed twice.']);
    const badItem = await s.admin.post(s.at.bulk, { items: [{ user_id: s.newcomer.id, main_role: 'boss' }] });
    expect(badItem.json().errors['items.0.main_role']).toEqual(['Choose a main role.']);
    expect(await snapshot()).toEqual(before);
    expect(await auditsOf(`${d.auditPrefix}.main_roles_changed`)).toHaveLength(2);
  });

  describe('new-user requests', () => {
    it('refuses bad input with a message per field; nothing is filed', async () => {
      const s = await setup();
      const invalid = await s.admin.post(s.at.requests, {
        first_name: ' ',
        email: 'not-an-email',
        main_role: Object.values(c.otherAppRole)[0],
        justification: '   ',
      });
      expect(invalid.statusCode).toBe(400);
      const { errors } = invalid.json();
      expect(errors.first_name).toEqual(['Enter the first name.']);
      expect(errors.last_name).toBeDefined();
      expect(errors.email).toEqual(['Enter a valid email address.']);
      expect(errors.main_role).toEqual(['Choose a main role.']);
      expect(errors.justification).toEqual(['Enter the justification.']);
      const tooLong = await s.admin.post(s.at.requests, { ...request(c.roles), justification: 'x'.repeat(2001) });
      expect(tooLong.json().errors.justification).toEqual(['Justification must be at most 2000 characters.']);
      // The project role is not the app administrator's to choose.
      const extra = await s.admin.post(s.at.requests, { ...request(c.roles), project_role: 'admin' });
      expect(extra.statusCode).toBe(400);
      expect(await db().select().from(userRequests).where(eq(userRequests.projectId, s.project.id))).toEqual([]);
    });

    it('refuses with 409 an email of a member and a second pending request', async () => {
      const s = await setup();
      const valid = request(c.roles);
      const member = await s.admin.post(s.at.requests, { ...valid, email: s.people.noRole.email.toUpperCase() });
      expect(member.statusCode).toBe(409);
      expect(member.json().message).toBe(
        `${s.people.noRole.email.toLowerCase()} is already a member of this project: add them under ${d.names.title}.`,
      );
      expect((await s.admin.post(s.at.requests, valid)).statusCode).toBe(201);
      const again = await s.admin.post(s.at.requests, { ...valid, email: 'sam.steward@example.org' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/^A request for sam\.steward@example\.org is already waiting/);
      expect(await db().select().from(userRequests).where(eq(userRequests.projectId, s.project.id))).toHaveLength(1);
      // Someone with an account in another project only is welcome: the approval reuses their account.
      const elsewhere = await s.admin.post(s.at.requests, { ...valid, email: s.people.outsider.email });
      expect(elsewhere.statusCode).toBe(201);
      // Once the request is decided, a new one may be filed.
      await db()
        .update(userRequests)
        .set({ status: 'rejected' })
        .where(and(eq(userRequests.projectId, s.project.id), eq(userRequests.email, 'sam.steward@example.org')));
      expect((await s.admin.post(s.at.requests, valid)).statusCode).toBe(201);
    });

    it("files a request with the app's main role, audits it, notifies the superadmins and lists the app's requests", async () => {
      const s = await setup();
      const superadmin = await createUser(db(), { role: 'superadmin' });
      const filed = await s.admin.post(s.at.requests, request(c.roles));
      expect(filed.statusCode, filed.body).toBe(201);
      expect(filed.json()).toMatchObject({
        first_name: 'Sam',
        last_name: 'Steward',
        email: 'sam.steward@example.org',
        project_role: 'simple',
        main_roles: { monitoring: null, policy_management: null, chart_review: null, [d.app]: firstRole },
        justification: 'Takes part from next month.',
        status: 'pending',
        project: { id: s.project.id, name: 'North Clinic' },
        requested_by: { id: s.people.admin.id, name: 'Ada Admin' },
        decided_by: null,
        rejection_reason: null,
      });
      const audits = await auditsOf('user_request.create');
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({
        projectId: s.project.id,
        actorUserId: s.people.admin.id,
        subjectType: 'user_request',
        subjectId: String(filed.json().id),
        data: { email: 'sam.steward@example.org', project_role: 'simple', main_roles: { [d.app]: firstRole } },
      });
      const [note] = await db().select().from(notifications).where(eq(notifications.userId, superadmin.id));
      expect(note).toMatchObject({
        projectId: s.project.id,
        message: 'North Clinic asks for a new user: Sam Steward',
        link: '/superadmin/new-user-requests',
      });

      await s.admin.post(s.at.requests, { ...request([secondRole, firstRole]), first_name: 'Rae', email: 'rae@x.org' });
      // A request for another app only, and another project's request for this app, are not listed.
      await db()
        .insert(userRequests)
        .values([
          {
            projectId: s.project.id,
            firstName: 'Oda',
            lastName: 'Other',
            email: 'oda@example.org',
            projectRole: 'simple',
            mainRoles: c.otherAppRole,
            justification: 'Another app.',
          },
          {
            projectId: s.other.id,
            firstName: 'Ole',
            lastName: 'Other',
            email: 'ole@example.org',
            projectRole: 'simple',
            mainRoles: { [d.app]: firstRole },
            justification: 'Another project.',
          },
        ]);
      const list = await s.admin.get(s.at.requests);
      expect(list.statusCode).toBe(200);
      expect(
        list
          .json()
          .requests.map((r: { email: string; main_roles: Record<string, string> }) => [r.email, r.main_roles[d.app]]),
      ).toEqual([
        ['rae@x.org', secondRole],
        ['sam.steward@example.org', firstRole],
      ]);
    });

    it("tells an app administrator who is not a project admin of the decision on the app's screen", async () => {
      const s = await setup();
      const superadmin = await ctx.signedIn(await createUser(db(), { role: 'superadmin' }));
      const steward = await createUser(db(), { firstName: 'Mia', lastName: 'Steward' });
      await addMember(db(), s.project.id, steward.id, 'simple');
      const topRole = d.app === 'monitoring' ? 'monitoring_admin' : 'policy_admin';
      await setMainRole(db(), s.project.id, steward.id, d.app, topRole);
      const filed = await (await ctx.signedIn(steward)).post(s.at.requests, request(c.roles));
      expect(filed.statusCode, filed.body).toBe(201);
      const byAdmin = await s.admin.post(s.at.requests, { ...request(c.roles), email: 'other@example.org' });
      expect((await superadmin.post(`/super/user-requests/${filed.json().id}/approve`, {})).statusCode).toBe(200);
      const rejected = await superadmin.post(`/super/user-requests/${byAdmin.json().id}/reject`, { reason: 'Unknown' });
      expect(rejected.statusCode).toBe(200);
      const linkFor = async (userId: number) =>
        (await db().select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.link);
      expect(await linkFor(steward.id)).toEqual([`/app/${c.requestScreen.replace('{id}', String(s.project.id))}`]);
      expect(await linkFor(s.people.admin.id)).toEqual([`/app/admin/${s.project.id}/new-user-request`]);
    });
  });
});
