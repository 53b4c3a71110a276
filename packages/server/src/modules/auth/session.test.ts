import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { auditEvents, sessions } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';
import { sha256 } from '../../lib/crypto.js';

describe('sessions and CSRF', () => {
  const ctx = useTestApp();

  it('refuses a state-changing request without a matching X-XSRF-TOKEN with 419', async () => {
    const none = await ctx.app.inject({ method: 'POST', url: '/login', payload: { email: 'a', password: 'b' } });
    expect(none.statusCode).toBe(419);
    expect(none.json()).toMatchObject({ message: 'CSRF token mismatch.' });

    const agent = ctx.agent();
    await agent.csrf();
    const wrong = await agent.post('/login', { email: 'a', password: 'b' }, { 'x-xsrf-token': 'not-the-token' });
    expect(wrong.statusCode).toBe(419);

    // A token from another session does not count either.
    const other = ctx.agent();
    await other.csrf();
    const foreign = await agent.post(
      '/login',
      { email: 'a', password: 'b' },
      { 'x-xsrf-token': other.jar.get('XSRF-TOKEN')! },
    );
    expect(foreign.statusCode).toBe(419);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax, and XSRF-TOKEN readable by scripts', async () => {
    const res = await ctx.agent().csrf();
    expect(res.statusCode).toBe(204);
    const session = res.cookies.find((c) => c.name === 'portal_session')!;
    const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(xsrf.httpOnly).toBeFalsy();
    // Only the hash is stored.
    const [row] = await ctx.db.handle.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, sha256(session.value)));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(session.value);
  });

  it('rotates the session at login: the id used before no longer works', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    await agent.csrf();
    const before = agent.jar.get('portal_session')!;
    const login = await agent.login(user.email, TEST_PASSWORD);
    expect(login.statusCode).toBe(200);
    const after = agent.jar.get('portal_session')!;
    expect(after).not.toBe(before);
    expect((await agent.get('/api/user')).json()).toMatchObject({ id: user.id });
    const stale = await ctx.app.inject({ method: 'GET', url: '/api/user', cookies: { portal_session: before } });
    expect(stale.statusCode).toBe(401);
  });

  it('ends a session idle for 30 minutes', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    await agent.login(user.username, TEST_PASSWORD);
    ctx.clock.advance(minutes(29));
    expect((await agent.get('/api/user')).statusCode).toBe(200);
    ctx.clock.advance(minutes(29)); // activity at 29 min reset the idle timer (written at most once a minute)
    expect((await agent.get('/api/user')).statusCode).toBe(200);
    ctx.clock.advance(minutes(31));
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    expect((await agent.get('/api/auth/check')).json()).toEqual({ authenticated: false, user: null });
  });

  it('ends a session 12 hours after sign-in, however active', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    await agent.login(user.username, TEST_PASSWORD);
    for (let i = 0; i < 24; i++) {
      ctx.clock.advance(minutes(29));
      await agent.get('/api/user');
    }
    expect((await agent.get('/api/user')).statusCode).toBe(200); // 11 h 36 min
    ctx.clock.advance(minutes(25));
    expect((await agent.get('/api/user')).statusCode).toBe(401);
  });

  it('ends the session of a user who is disabled', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    await agent.login(user.email, TEST_PASSWORD);
    await ctx.db.handle.pool.query(`update users set status = 'disabled' where id = $1`, [user.id]);
    expect((await agent.get('/api/user')).statusCode).toBe(401);
  });

  it('logs out and audits it, and logout-inactivity is audited with its reason', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    await agent.login(user.email, TEST_PASSWORD);
    expect((await agent.post('/logout-inactivity')).statusCode).toBe(204);
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    await agent.login(user.email, TEST_PASSWORD);
    expect((await agent.post('/logout')).statusCode).toBe(204);
    const actions = (await ctx.db.handle.db.select().from(auditEvents).where(eq(auditEvents.actorUserId, user.id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(['auth.login', 'auth.logout_inactivity', 'auth.login', 'auth.logout']);
  });

  it('answers the current user on /api/user, /user and /me, and 401 when signed out', async () => {
    const user = await createUser(ctx.db.handle.db, { firstName: 'Ada', lastName: 'Lovelace' });
    const agent = ctx.agent();
    for (const url of ['/api/user', '/user', '/me']) expect((await agent.get(url)).statusCode).toBe(401);
    await agent.login(user.email, TEST_PASSWORD);
    for (const url of ['/api/user', '/user', '/me']) {
      expect((await agent.get(url)).json()).toEqual({
        id: user.id,
        username: user.username,
        email: user.email,
        role: 'user',
        first_name: 'Ada',
        last_name: 'Lovelace',
        two_factor_confirmed_at: null,
      });
    }
  });

  it('/api/auth/check says whether a two-factor secret exists, never the secret', async () => {
    const user = await createUser(ctx.db.handle.db, { twoFactorSecret: 'v1.secret-material' });
    const agent = ctx.agent();
    expect((await agent.get('/api/auth/check')).json()).toEqual({ authenticated: false, user: null });
    await ctx.db.handle.pool.query('update users set two_factor_secret = null where id = $1', [user.id]);
    await agent.login(user.email, TEST_PASSWORD);
    await ctx.db.handle.pool.query(`update users set two_factor_secret = 'v1.secret-material' where id = $1`, [
      user.id,
    ]);
    const check = await agent.get('/api/auth/check');
    expect(check.json()).toEqual({
      authenticated: true,
      user: {
        id: user.id,
        username: user.username,
        role: 'user',
        two_factor_secret: true,
        two_factor_confirmed_at: null,
        mfa: { required: false, days_remaining: null, overdue: false },
      },
    });
    expect(check.body).not.toContain('secret-material');
  });

  it("lists my sessions and ends the others, never another user's", async () => {
    const user = await createUser(ctx.db.handle.db);
    const stranger = await createUser(ctx.db.handle.db);
    const laptop = ctx.agent({ ip: '10.1.1.1' });
    const phone = ctx.agent({ ip: '10.1.1.2' });
    const strangerAgent = ctx.agent();
    await laptop.login(user.email, TEST_PASSWORD);
    await phone.login(user.email, TEST_PASSWORD);
    await strangerAgent.login(stranger.email, TEST_PASSWORD);

    const list = (await laptop.get('/api/user/sessions')).json().sessions;
    expect(list).toHaveLength(2);
    expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const phoneSession = list.find((s: { current: boolean }) => !s.current);
    expect(phoneSession.ip).toBe('10.1.1.2');

    // Another user cannot end it: 404, and it still works.
    expect((await strangerAgent.delete(`/api/user/sessions/${phoneSession.id}`)).statusCode).toBe(404);
    expect((await phone.get('/api/user')).statusCode).toBe(200);

    expect((await laptop.delete(`/api/user/sessions/${phoneSession.id}`)).statusCode).toBe(204);
    expect((await phone.get('/api/user')).statusCode).toBe(401);
    expect((await laptop.get('/api/user')).statusCode).toBe(200);

    await phone.login(user.email, TEST_PASSWORD);
    expect((await laptop.delete('/api/user/sessions')).statusCode).toBe(204);
    expect((await phone.get('/api/user')).statusCode).toBe(401);
    expect((await laptop.get('/api/user')).statusCode).toBe(200);
    expect((await laptop.delete('/api/user/sessions/not-a-uuid')).statusCode).toBe(400);
  });
});
