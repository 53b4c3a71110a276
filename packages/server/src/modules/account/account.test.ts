import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { auditEvents, users } from '../../db/schema/index.js';

const NEW_PASSWORD = 'Wj4$nBc8!tRy6#Pq';

describe('my account', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;
  const signedIn = (user: { email: string }, ip = '127.0.0.1') => ctx.signedIn(user, { ip });
  const auditOf = (userId: number, action: string) =>
    db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, String(userId)), eq(auditEvents.action, action)))
      .orderBy(asc(auditEvents.id));

  it('updates my name, validates it, and audits it; anonymous 401', async () => {
    const user = await createUser(db());
    const agent = await signedIn(user);
    expect((await agent.put('/api/user/profile', { first_name: '', last_name: 'X' })).json().errors.first_name).toEqual(
      ['Enter your first name.'],
    );
    const res = await agent.put('/api/user/profile', { first_name: 'Grace', last_name: 'Hopper' });
    expect(res.json()).toMatchObject({ id: user.id, first_name: 'Grace', last_name: 'Hopper' });
    expect((await agent.get('/api/user')).json().first_name).toBe('Grace');
    const anonymous = await ctx.anonymous();
    expect((await anonymous.put('/api/user/profile', { first_name: 'A', last_name: 'B' })).statusCode).toBe(401);
    const actions = (await db().select().from(auditEvents).where(eq(auditEvents.actorUserId, user.id))).map(
      (e) => e.action,
    );
    expect(actions).toContain('user.profile_updated');
  });

  it('records what my profile update changed: each changed name before and after, nothing else', async () => {
    const user = await createUser(db(), { firstName: 'Grace', lastName: 'Brewster' });
    const agent = await signedIn(user);
    expect((await agent.put('/api/user/profile', { first_name: 'Grace', last_name: 'Hopper' })).statusCode).toBe(200);
    expect((await agent.put('/api/user/profile', { first_name: 'Amazing', last_name: 'Grace' })).statusCode).toBe(200);
    const events = await auditOf(user.id, 'user.profile_updated');
    expect(events.map((e) => [e.subjectType, e.subjectId, e.data])).toEqual([
      ['user', String(user.id), { changes: { last_name: { from: 'Brewster', to: 'Hopper' } } }],
      [
        'user',
        String(user.id),
        { changes: { first_name: { from: 'Grace', to: 'Amazing' }, last_name: { from: 'Hopper', to: 'Grace' } } },
      ],
    ]);
  });

  it('changes my password with the current one, ends my other sessions, rotates this one', async () => {
    const user = await createUser(db());
    const here = await signedIn(user, '10.40.0.1');
    const there = await signedIn(user, '10.40.0.2');
    const wrong = await here.put('/api/user/password', {
      current_password: 'nope',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(wrong.json().errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const weak = await here.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(weak.json().errors.password[0]).toMatch(/^Password does not meet security requirements: /);
    const mismatch = await here.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: 'x',
    });
    expect(mismatch.json().errors.password_confirmation).toBeDefined();

    const before = here.jar.get('portal_session');
    const ok = await here.put('/api/user/password', {
      current_password: TEST_PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(ok.statusCode).toBe(200);
    expect(here.jar.get('portal_session')).not.toBe(before);
    expect((await here.get('/api/user')).statusCode).toBe(200);
    expect((await there.get('/api/user')).statusCode).toBe(401);
    expect(ctx.mailbox.last(user.email)?.subject).toBe('Your password was changed');
    expect((await ctx.agent().login(user.email, NEW_PASSWORD)).statusCode).toBe(200);

    // The audit names the password as changed, never a password or its hash.
    const [event, ...more] = await auditOf(user.id, 'user.password_changed');
    expect(more).toEqual([]);
    expect(event!.data).toEqual({ changes: { password: { changed: true } } });
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    const stored = JSON.stringify(event!.data);
    for (const secret of [NEW_PASSWORD, TEST_PASSWORD, row!.passwordHash!]) expect(stored).not.toContain(secret);
  });

  it('changes my email only with my password, refuses a taken one, and tells the old address', async () => {
    const user = await createUser(db());
    const other = await createUser(db());
    const agent = await signedIn(user);
    expect((await agent.put('/api/user/email', { email: 'new@example.test', password: 'wrong' })).statusCode).toBe(422);
    expect(
      (await agent.put('/api/user/email', { email: other.email.toUpperCase(), password: TEST_PASSWORD })).json().errors
        .email,
    ).toEqual(['This email address is already in use.']);
    expect((await agent.put('/api/user/email', { email: 'not-an-email', password: TEST_PASSWORD })).statusCode).toBe(
      400,
    );
    const res = await agent.put('/api/user/email', { email: 'New.Address@Example.test', password: TEST_PASSWORD });
    expect(res.json().email).toBe('new.address@example.test');
    expect(ctx.mailbox.last(user.email)?.subject).toBe('Your email address was changed');
    const [event] = await auditOf(user.id, 'user.email_changed');
    expect(event!.data).toMatchObject({
      changes: { email: { from: user.email, to: 'new.address@example.test' } },
    });
  });
});
