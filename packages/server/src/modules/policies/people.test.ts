import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createUser } from '../../../test/factories.js';
import { policyProject } from '../../../test/policy-kit.js';
import { auditEvents, policyUsers, projectMemberRoles } from '../../db/schema/index.js';

describe('policy users and main roles', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await policyProject(db());
    // A member who does not take part in policy management yet.
    const newcomer = await createUser(db(), { firstName: 'Nina', lastName: 'New' });
    await addMember(db(), s.project.id, newcomer.id, 'simple');
    return {
      ...s,
      newcomer,
      base: `/api/projects/${s.project.id}/policy-management`,
      admin: await ctx.signedIn(s.people.admin),
    };
  }

  const names = (answer: { json(): { users: { name: string }[] } }) => answer.json().users.map((u) => u.name);

  it('guards every call: 401 signed out, 403 without a role or as a reader, 404 outside; nothing changes', async () => {
    const s = await setup();
    const calls = [
      ['get', `${s.base}/eligible-users/unassigned`],
      ['get', `${s.base}/eligible-users/assigned`],
      ['get', `${s.base}/pol-man-users/unassigned-main-role`],
      ['get', `${s.base}/pol-man-users/assigned-main-role`],
      ['post', `${s.base}/policy-users/assign`, { user_ids: [s.newcomer.id] }],
      ['post', `${s.base}/policy-users/update`, { user_ids: [] }],
      ['put', `${s.base}/pol-man-users/${s.people.author.id}/main-role`, { main_role: 'reader' }],
      [
        'post',
        `${s.base}/pol-man-users/main-role/bulk`,
        { items: [{ user_id: s.people.author.id, main_role: 'reader' }] },
      ],
    ] as const;
    const anonymous = ctx.agent();
    await anonymous.csrf();
    const agents = {
      anonymous,
      noRole: await ctx.signedIn(s.people.noRole),
      reader: await ctx.signedIn(s.people.reader),
      outsider: await ctx.signedIn(s.people.outsider),
    };
    const snapshot = async () => ({
      users: await db().select().from(policyUsers),
      roles: await db().select().from(projectMemberRoles),
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
    });
    const before = await snapshot();
    for (const [method, url, body] of calls) {
      for (const [who, status] of [
        ['anonymous', 401],
        ['noRole', 403],
        ['reader', 403],
        ['outsider', 404],
      ] as const) {
        const agent = agents[who];
        const answer = method === 'get' ? await agent.get(url) : await agent[method](url, body);
        expect(answer.statusCode, `${method} ${url} as ${who}`).toBe(status);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('adds members, lists who has a role, and removing someone takes their policy role away', async () => {
    const s = await setup();
    expect(names(await s.admin.get(`${s.base}/eligible-users/unassigned`))).toEqual(['Nina New', 'Nora None']);
    const added = await s.admin.post(`${s.base}/policy-users/assign`, { user_ids: [s.newcomer.id] });
    expect(added.statusCode).toBe(200);
    expect(names(added)).toEqual(['Ada Admin', 'Nina New', 'Otto Author', 'Rita Reader']);
    expect(names(await s.admin.get(`${s.base}/pol-man-users/unassigned-main-role`))).toEqual(['Nina New']);
    // Adding again changes nothing; a non-member is refused by position.
    await s.admin.post(`${s.base}/policy-users/assign`, { user_ids: [s.newcomer.id] });
    const stranger = await s.admin.post(`${s.base}/policy-users/assign`, { user_ids: [s.people.outsider.id] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().errors['user_ids.0']).toEqual(['This person is not a member of the project.']);
    const twice = await s.admin.post(`${s.base}/policy-users/assign`, { user_ids: [1, 1] });
    expect(twice.json().errors.user_ids).toEqual(['A person is listed twice.']);

    const updated = await s.admin.post(`${s.base}/policy-users/update`, {
      user_ids: [s.people.admin.id, s.newcomer.id, s.people.reader.id],
    });
    expect(names(updated)).toEqual(['Ada Admin', 'Nina New', 'Rita Reader']);
    const authorRole = await db()
      .select()
      .from(projectMemberRoles)
      .where(eq(projectMemberRoles.userId, s.people.author.id));
    expect(authorRole).toEqual([]);
    const author = await ctx.signedIn(s.people.author);
    expect((await author.get(`${s.base}/documents`)).statusCode).toBe(403);
    const self = await s.admin.post(`${s.base}/policy-users/update`, { user_ids: [s.newcomer.id] });
    expect(self.statusCode).toBe(409);
  });

  it('sets main roles one by one and in bulk; never one own role; only policy users', async () => {
    const s = await setup();
    await s.admin.post(`${s.base}/policy-users/assign`, { user_ids: [s.newcomer.id] });
    const one = await s.admin.put(`${s.base}/pol-man-users/${s.newcomer.id}/main-role`, { main_role: 'author' });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ name: 'Nina New', main_role: 'author', policy_user: true });
    const newcomer = await ctx.signedIn(s.newcomer);
    expect((await newcomer.get(`${s.base}/documents`)).statusCode).toBe(200);

    const own = await s.admin.put(`${s.base}/pol-man-users/${s.people.admin.id}/main-role`, { main_role: 'reader' });
    expect(own.statusCode).toBe(409);
    const outsider = await s.admin.put(`${s.base}/pol-man-users/${s.people.noRole.id}/main-role`, {
      main_role: 'reader',
    });
    expect(outsider.statusCode).toBe(404);
    const badRole = await s.admin.put(`${s.base}/pol-man-users/${s.newcomer.id}/main-role`, { main_role: 'boss' });
    expect(badRole.statusCode).toBe(400);

    const bulk = await s.admin.post(`${s.base}/pol-man-users/main-role/bulk`, {
      items: [
        { user_id: s.newcomer.id, main_role: 'signer' },
        { user_id: s.people.reader.id, main_role: null },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().users.map((u: { name: string; main_role: string }) => [u.name, u.main_role])).toEqual([
      ['Ada Admin', 'policy_admin'],
      ['Nina New', 'signer'],
      ['Otto Author', 'author'],
    ]);
    expect(names(await s.admin.get(`${s.base}/pol-man-users/unassigned-main-role`))).toEqual(['Rita Reader']);
    const mixed = await s.admin.post(`${s.base}/pol-man-users/main-role/bulk`, {
      items: [
        { user_id: s.newcomer.id, main_role: 'reader' },
        { user_id: s.people.noRole.id, main_role: 'reader' },
      ],
    });
    expect(mixed.statusCode).toBe(400);
    expect(Object.keys(mixed.json().errors)).toEqual(['items.1']);
    const unchanged = await db().select().from(projectMemberRoles).where(eq(projectMemberRoles.userId, s.newcomer.id));
    expect(unchanged[0]!.mainRole).toBe('signer');
    const audits = await db().select().from(auditEvents).where(eq(auditEvents.action, 'policy.main_roles_changed'));
    expect(audits).toHaveLength(2);
  });
});
