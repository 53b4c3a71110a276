import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createUser, setMainRole } from '../../../test/factories.js';
import { policyProject } from '../../../test/policy-kit.js';
import { auditEvents, notifications, userRequests } from '../../db/schema/index.js';

describe('new-user requests from policy management', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const s = await policyProject(db());
    const superadmin = await createUser(db(), { role: 'superadmin' });
    return {
      ...s,
      superadmin,
      url: `/api/projects/${s.project.id}/policy-management/user-requests`,
      admin: await ctx.signedIn(s.people.admin),
    };
  }

  const valid = {
    first_name: 'Sam',
    last_name: 'Signer',
    email: 'Sam.Signer@Example.org',
    main_role: 'signer',
    justification: 'Signs the nursing policies from next month.',
  };

  it('guards both calls: 401 signed out, 403 without a role or as a reader, 404 outside; nothing changes', async () => {
    const s = await setup();
    const anonymous = ctx.agent();
    await anonymous.csrf();
    const agents = {
      anonymous,
      noRole: await ctx.signedIn(s.people.noRole),
      reader: await ctx.signedIn(s.people.reader),
      outsider: await ctx.signedIn(s.people.outsider),
    };
    const snapshot = async () => ({
      requests: await db().select().from(userRequests),
      audit: (await db().select({ n: count() }).from(auditEvents))[0]!.n,
      notifications: (await db().select({ n: count() }).from(notifications))[0]!.n,
    });
    const before = await snapshot();
    for (const [who, status] of [
      ['anonymous', 401],
      ['noRole', 403],
      ['reader', 403],
      ['outsider', 404],
    ] as const) {
      const agent = agents[who];
      expect((await agent.get(s.url)).statusCode, `GET as ${who}`).toBe(status);
      expect((await agent.post(s.url, valid)).statusCode, `POST as ${who}`).toBe(status);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad input with a message per field', async () => {
    const s = await setup();
    const invalid = await s.admin.post(s.url, {
      first_name: ' ',
      email: 'not-an-email',
      main_role: 'boss',
      justification: '   ',
    });
    expect(invalid.statusCode).toBe(400);
    const { errors } = invalid.json();
    expect(errors.first_name).toEqual(['Enter the first name.']);
    expect(errors.last_name).toBeDefined();
    expect(errors.email).toEqual(['Enter a valid email address.']);
    expect(errors.main_role).toEqual(['Choose a main role.']);
    expect(errors.justification).toEqual(['Enter the justification.']);
    const tooLong = await s.admin.post(s.url, { ...valid, justification: 'x'.repeat(2001) });
    expect(tooLong.json().errors.justification).toEqual(['Justification must be at most 2000 characters.']);
    // The project role is not the policy administrator's to choose.
    const extra = await s.admin.post(s.url, { ...valid, project_role: 'admin' });
    expect(extra.statusCode).toBe(400);
    expect(await db().select().from(userRequests).where(eq(userRequests.projectId, s.project.id))).toEqual([]);
  });

  it('files a request with the policy main role, audits it and notifies the superadmins', async () => {
    const s = await setup();
    const filed = await s.admin.post(s.url, valid);
    expect(filed.statusCode, filed.body).toBe(201);
    expect(filed.json()).toMatchObject({
      first_name: 'Sam',
      last_name: 'Signer',
      email: 'sam.signer@example.org',
      project_role: 'simple',
      main_roles: { policy_management: 'signer', monitoring: null, chart_review: null },
      justification: 'Signs the nursing policies from next month.',
      status: 'pending',
      project: { id: s.project.id, name: 'North Clinic' },
      requested_by: { id: s.people.admin.id, name: 'Ada Admin' },
      decided_by: null,
      rejection_reason: null,
    });
    const audits = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, s.project.id), eq(auditEvents.action, 'user_request.create')));
    expect(audits).toHaveLength(1);
    const [audit] = audits;
    expect(audit).toMatchObject({
      projectId: s.project.id,
      actorUserId: s.people.admin.id,
      subjectType: 'user_request',
      subjectId: String(filed.json().id),
      data: { email: 'sam.signer@example.org', project_role: 'simple', main_roles: { policy_management: 'signer' } },
    });
    const [note] = await db().select().from(notifications).where(eq(notifications.userId, s.superadmin.id));
    expect(note).toMatchObject({
      projectId: s.project.id,
      message: 'North Clinic asks for a new user: Sam Signer',
      link: '/superadmin/new-user-requests',
    });
  });

  it('tells a policy administrator who is not a project admin of the decision on the policy screen', async () => {
    const s = await setup();
    const policyAdmin = await createUser(db(), { firstName: 'Pia', lastName: 'Policy' });
    await addMember(db(), s.project.id, policyAdmin.id, 'simple');
    await setMainRole(db(), s.project.id, policyAdmin.id, 'policy_management', 'policy_admin');
    const filed = await (await ctx.signedIn(policyAdmin)).post(s.url, valid);
    const byAdmin = await s.admin.post(s.url, { ...valid, email: 'other.person@example.org' });
    const superadmin = await ctx.signedIn(s.superadmin);
    expect((await superadmin.post(`/super/user-requests/${filed.json().id}/approve`, {})).statusCode).toBe(200);
    const rejected = await superadmin.post(`/super/user-requests/${byAdmin.json().id}/reject`, { reason: 'Unknown' });
    expect(rejected.statusCode).toBe(200);
    const linkFor = async (userId: number) =>
      (await db().select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.link);
    expect(await linkFor(policyAdmin.id)).toEqual([`/app/policy_management/${s.project.id}/create-project-user`]);
    expect(await linkFor(s.people.admin.id)).toEqual([`/app/admin/${s.project.id}/new-user-request`]);
  });

  it('refuses with 409 an email of a member and a second pending request', async () => {
    const s = await setup();
    const member = await s.admin.post(s.url, { ...valid, email: s.people.noRole.email.toUpperCase() });
    expect(member.statusCode).toBe(409);
    expect(member.json().message).toBe(
      `${s.people.noRole.email.toLowerCase()} is already a member of this project: add them under Policy users.`,
    );
    expect((await s.admin.post(s.url, valid)).statusCode).toBe(201);
    const again = await s.admin.post(s.url, { ...valid, email: 'sam.signer@example.org' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^A request for sam\.signer@example\.org is already waiting/);
    expect(await db().select().from(userRequests).where(eq(userRequests.projectId, s.project.id))).toHaveLength(1);
    // Someone with an account in another project only is welcome: the approval reuses their account.
    const elsewhere = await s.admin.post(s.url, { ...valid, email: s.people.outsider.email });
    expect(elsewhere.statusCode).toBe(201);
    // Once the request is decided, a new one may be filed.
    await db()
      .update(userRequests)
      .set({ status: 'rejected' })
      .where(and(eq(userRequests.projectId, s.project.id), eq(userRequests.email, 'sam.signer@example.org')));
    expect((await s.admin.post(s.url, valid)).statusCode).toBe(201);
  });

  it("lists only this project's requests that ask for a policy main role, newest first", async () => {
    const s = await setup();
    await s.admin.post(s.url, valid);
    await s.admin.post(s.url, { ...valid, first_name: 'Rae', email: 'rae@example.org', main_role: 'reviewer' });
    // The Admin app's request without a policy role, and another project's policy request, are not listed.
    await db()
      .insert(userRequests)
      .values([
        {
          projectId: s.project.id,
          firstName: 'Mo',
          lastName: 'Monitor',
          email: 'mo@example.org',
          projectRole: 'simple',
          mainRoles: { monitoring: 'viewer' },
          justification: 'Enters data.',
        },
        {
          projectId: s.other.id,
          firstName: 'Ole',
          lastName: 'Other',
          email: 'ole@example.org',
          projectRole: 'simple',
          mainRoles: { policy_management: 'reader' },
          justification: 'Reads.',
        },
      ]);
    const list = await s.admin.get(s.url);
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .requests.map((r: { email: string; main_roles: { policy_management: string } }) => [
          r.email,
          r.main_roles.policy_management,
        ]),
    ).toEqual([
      ['rae@example.org', 'reviewer'],
      ['sam.signer@example.org', 'signer'],
    ]);
  });
});
