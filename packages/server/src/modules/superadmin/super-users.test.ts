import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, setMainRole, TEST_PASSWORD } from '../../../test/factories.js';
import { auditEvents, sessions, users } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';

const NEW_PASSWORD = 'q7!Vt#x9Rk2@Wm4';

describe('superadmin: users', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function setup() {
    const superadmin = await createUser(db(), { role: 'superadmin', firstName: 'Sue', lastName: 'Super' });
    return { superadmin, agent: await ctx.signedIn(superadmin) };
  }
  const linkIn = (text: string | undefined) => {
    const match = text?.match(/\/reset-password\?token=([0-9a-f]{64})&email=(\S+)/);
    return match ? { token: match[1]!, email: decodeURIComponent(match[2]!) } : null;
  };
  const actionsOn = async (userId: number) =>
    (
      await db()
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.subjectId, String(userId)))
    ).map((e) => e.action);

  it('creates an invited account with memberships; the invitation link sets the password and the user signs in', async () => {
    const { agent } = await setup();
    const project = await createProject(db(), { name: 'West Wing' });
    const created = await agent.post('/super/users', {
      email: 'New.Nurse@Example.org',
      username: 'new.nurse',
      first_name: 'Nora',
      last_name: 'New',
      memberships: [{ project_id: project.id, project_role: 'simple', main_roles: { monitoring: 'data_entry' } }],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      email: 'new.nurse@example.org',
      status: 'invited',
      password_set: false,
      role: 'user',
      memberships: [
        {
          project_id: project.id,
          project_name: 'West Wing',
          project_role: 'simple',
          main_roles: { monitoring: 'data_entry', policy_management: null, chart_review: null },
        },
      ],
    });
    const mail = ctx.mailbox.last('new.nurse@example.org');
    expect(mail?.subject).toBe('Your Healthcare Quality Portal account');
    expect(mail?.text).toContain('within 7 days');
    const link = linkIn(mail?.text);
    expect(link).not.toBeNull();

    // Before choosing a password the account cannot sign in.
    expect((await ctx.agent().login('new.nurse', TEST_PASSWORD)).statusCode).toBe(422);
    const anonymous = await ctx.anonymous();
    const set = await anonymous.post('/password/reset', {
      token: link!.token,
      email: link!.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(set.json().message).toBe('Your password is set. You can now sign in with it.');
    const [row] = await db().select().from(users).where(eq(users.email, 'new.nurse@example.org'));
    expect(row!.status).toBe('active');
    expect((await ctx.agent().login('new.nurse', NEW_PASSWORD)).statusCode).toBe(200);
    expect(await actionsOn(row!.id)).toEqual(expect.arrayContaining(['user.create', 'user.invitation_accepted']));
  });

  it('an invitation expires after 7 days and can be sent again', async () => {
    const { agent } = await setup();
    const created = (
      await agent.post('/super/users', {
        email: 'late@example.org',
        username: 'late',
        first_name: 'L',
        last_name: 'Ate',
      })
    ).json();
    const first = linkIn(ctx.mailbox.last('late@example.org')?.text)!;
    ctx.clock.advance(minutes(60 * 24 * 7) + 1000);
    const fresh = await ctx.signedIn((await db().select().from(users).where(eq(users.role, 'superadmin')))[0]!);
    const anonymous = await ctx.anonymous();
    const body = (token: string) => ({
      token,
      email: 'late@example.org',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect((await anonymous.post('/password/reset', body(first.token))).statusCode).toBe(422);
    expect((await fresh.post(`/super/users/${created.id}/resend-invitation`)).statusCode).toBe(200);
    const second = linkIn(ctx.mailbox.last('late@example.org')?.text)!;
    expect(second.token).not.toBe(first.token);
    expect((await anonymous.post('/password/reset', body(second.token))).statusCode).toBe(200);
    expect((await fresh.post(`/super/users/${created.id}/resend-invitation`)).statusCode).toBe(409);
  });

  it('refuses a taken email or username, bad input and unknown projects', async () => {
    const { agent } = await setup();
    const existing = await createUser(db());
    const taken = await agent.post('/super/users', {
      email: existing.email.toUpperCase(),
      username: existing.username,
      first_name: 'A',
      last_name: 'B',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({
      email: ['A user with this email already exists.'],
      username: ['A user with this username already exists.'],
    });
    const bad = await agent.post('/super/users', { email: 'x', username: 'a b', first_name: '', last_name: 'B' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'first_name', 'username']);
    const unknownProject = await agent.post('/super/users', {
      email: 'u@example.org',
      username: 'u_user',
      first_name: 'U',
      last_name: 'U',
      memberships: [{ project_id: 999999 }],
    });
    expect(unknownProject.statusCode).toBe(400);
    expect(unknownProject.json().errors['memberships.0.project_id']).toEqual(['This project does not exist.']);
    expect(await db().select().from(users).where(eq(users.email, 'u@example.org'))).toEqual([]);
  });

  it('searches and filters, with paging', async () => {
    const { agent } = await setup();
    const project = await createProject(db());
    const zed = await createUser(db(), { firstName: 'Zed', lastName: 'Zulu' });
    await createUser(db(), { firstName: 'Zara', lastName: 'Zulu', status: 'disabled' });
    await addMember(db(), project.id, zed.id, 'simple');
    const all = (await agent.get('/super/users?q=zulu')).json();
    expect(all.total).toBe(2);
    expect(
      (await agent.get('/super/users?q=zulu&status=disabled'))
        .json()
        .users.map((u: { first_name: string }) => u.first_name),
    ).toEqual(['Zara']);
    expect(
      (await agent.get(`/super/users?project=${project.id}`)).json().users.map((u: { id: number }) => u.id),
    ).toEqual([zed.id]);
    expect((await agent.get('/super/users?q=zulu&role=superadmin')).json().total).toBe(0);
    const paged = (await agent.get('/super/users?q=zulu&page=2&page_size=1')).json();
    expect(paged).toMatchObject({ total: 2, page: 2, page_size: 1 });
    expect(paged.users).toHaveLength(1);
    expect((await agent.get('/super/users?q=%25')).json().total).toBe(0);
    expect((await agent.get('/super/users?status=gone')).statusCode).toBe(400);
    expect((await agent.get('/super/users/99999999')).statusCode).toBe(404);
  });

  it('disabling ends every session at once; enabling lets the user sign in again; never your own account', async () => {
    const { superadmin, agent } = await setup();
    const nurse = await createUser(db());
    const nurseAgent = await ctx.signedIn(nurse);
    expect((await nurseAgent.get('/api/member/projects')).statusCode).toBe(200);

    const disabled = await agent.post(`/super/users/${nurse.id}/disable`);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().status).toBe('disabled');
    expect(await db().select().from(sessions).where(eq(sessions.userId, nurse.id))).toEqual([]);
    expect((await nurseAgent.get('/api/member/projects')).statusCode).toBe(401);
    expect((await ctx.agent().login(nurse.email, TEST_PASSWORD)).statusCode).toBe(422);

    expect((await agent.post(`/super/users/${nurse.id}/enable`)).json().status).toBe('active');
    expect((await ctx.agent().login(nurse.email, TEST_PASSWORD)).statusCode).toBe(200);

    const self = await agent.post(`/super/users/${superadmin.id}/disable`);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot disable your own account. Ask another superadmin.');
    expect((await agent.patch(`/super/users/${superadmin.id}`, { role: 'user' })).statusCode).toBe(409);
    expect(await actionsOn(nurse.id)).toEqual(expect.arrayContaining(['user.disable', 'user.enable']));
  });

  it('resets two-factor, sends a password reset, and unlocks a locked account', async () => {
    const { agent } = await setup();
    const nurse = await createUser(db(), { twoFactorSecret: 'sealed', twoFactorConfirmedAt: new Date() });
    expect((await agent.get(`/super/users/${nurse.id}`)).json().two_factor_enabled).toBe(true);
    const reset = await agent.post(`/super/users/${nurse.id}/reset-two-factor`);
    expect(reset.json().two_factor_enabled).toBe(false);
    const [row] = await db().select().from(users).where(eq(users.id, nurse.id));
    expect(row).toMatchObject({ twoFactorSecret: null, twoFactorConfirmedAt: null });
    expect(ctx.mailbox.last(nurse.email)?.subject).toBe('Your two-factor authentication was reset');
    expect((await agent.post(`/super/users/${nurse.id}/reset-two-factor`)).statusCode).toBe(409);

    expect((await agent.post(`/super/users/${nurse.id}/send-password-reset`)).statusCode).toBe(200);
    expect(linkIn(ctx.mailbox.last(nurse.email)?.text)).not.toBeNull();

    for (let i = 0; i < 10; i++) await ctx.agent({ ip: `10.9.${i}.1` }).login(nurse.email, 'Wrong-password-1!');
    expect((await ctx.agent({ ip: '10.9.99.1' }).login(nurse.email, TEST_PASSWORD)).statusCode).toBe(429);
    const locked = (await agent.get(`/super/users/${nurse.id}`)).json();
    expect(locked.locked).toBe(true);
    expect(locked.locked_until).not.toBeNull();
    expect((await agent.get('/super/users?status=locked')).json().users.map((u: { id: number }) => u.id)).toEqual([
      nurse.id,
    ]);
    expect((await agent.post(`/super/users/${nurse.id}/unlock`)).json().locked).toBe(false);
    expect((await ctx.agent({ ip: '10.9.99.1' }).login(nurse.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect(await actionsOn(nurse.id)).toEqual(
      expect.arrayContaining(['user.reset_two_factor', 'user.send_password_reset', 'user.unlock']),
    );
  });

  it('edits the profile and role, and replaces memberships while keeping each project an admin', async () => {
    const { agent } = await setup();
    const a = await createProject(db(), { name: 'A' });
    const b = await createProject(db(), { name: 'B' });
    const nurse = await createUser(db());
    const nurseAgent = await ctx.signedIn(nurse);
    await addMember(db(), a.id, nurse.id, 'admin');
    await setMainRole(db(), a.id, nurse.id, 'policy_management', 'author');

    const edited = await agent.patch(`/super/users/${nurse.id}`, { first_name: 'Nadia', role: 'superadmin' });
    expect(edited.json()).toMatchObject({ first_name: 'Nadia', role: 'superadmin' });
    // A change of role ends the sessions: the user signs in again with the new role.
    expect((await nurseAgent.get('/api/member/projects')).statusCode).toBe(401);

    const lastAdmin = await agent.put(`/super/users/${nurse.id}/memberships`, { memberships: [{ project_id: b.id }] });
    expect(lastAdmin.statusCode).toBe(409);
    const other = await createUser(db());
    await addMember(db(), a.id, other.id, 'admin');
    const moved = await agent.put(`/super/users/${nurse.id}/memberships`, {
      memberships: [{ project_id: b.id, project_role: 'admin', main_roles: { chart_review: 'reviewer' } }],
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().memberships).toEqual([
      {
        project_id: b.id,
        project_name: 'B',
        project_role: 'admin',
        main_roles: { monitoring: null, policy_management: null, chart_review: 'reviewer' },
      },
    ]);
    const dup = await agent.put(`/super/users/${nurse.id}/memberships`, {
      memberships: [{ project_id: b.id }, { project_id: b.id }],
    });
    expect(dup.statusCode).toBe(400);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, String(nurse.id)), eq(auditEvents.action, 'user.memberships_update')));
    expect(events).toHaveLength(1);
  });
});
