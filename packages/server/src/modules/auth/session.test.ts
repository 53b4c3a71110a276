import { count, eq } from 'drizzle-orm';
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
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    const csrf = await agent.csrf();
    expect(csrf.statusCode).toBe(204);
    const key = csrf.cookies.find((c) => c.name === 'portal_xsrf_key')!;
    expect(key).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(csrf.cookies.find((c) => c.name === 'XSRF-TOKEN')!.httpOnly).toBeFalsy();
    const res = await agent.login(user.email, TEST_PASSWORD);
    const session = res.cookies.find((c) => c.name === 'portal_session')!;
    const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(xsrf.httpOnly).toBeFalsy();
    // The anonymous key is dropped: the session's own token takes over.
    expect(agent.jar.has('portal_xsrf_key')).toBe(false);
    // Only the hash is stored.
    const [row] = await ctx.db.handle.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, sha256(session.value)));
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(session.value);
  });

  it('stores no session for anonymous visitors: 2,000 calls to /sanctum/csrf-cookie leave the table as it was', async () => {
    const db = ctx.db.handle.db;
    const rows = async () => (await db.select({ n: count() }).from(sessions))[0]!.n;
    const before = await rows();
    for (let i = 0; i < 2000; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
      expect(res.statusCode).toBe(204);
      expect(res.cookies.map((c) => c.name).sort()).toEqual(['XSRF-TOKEN', 'portal_xsrf_key']);
    }
    // One browser asking again keeps its pair (no churn between tabs).
    const agent = ctx.agent();
    await agent.csrf();
    const pair = new Map(agent.jar);
    expect((await agent.csrf()).cookies).toHaveLength(0);
    expect(agent.jar).toEqual(pair);
    expect(await rows()).toBe(before);
  }, 60_000);

  it('checks the anonymous token like a session one: refused without it, from another browser, forged or expired', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    const forgot = (headers?: Record<string, string>) => agent.post('/password/forgot', { email: user.email }, headers);
    // No token at all, and a key cookie without a header (a cross-site form post).
    expect((await forgot()).statusCode).toBe(419);
    await agent.csrf();
    const token = decodeURIComponent(agent.jar.get('XSRF-TOKEN')!);
    const key = agent.jar.get('portal_xsrf_key')!;
    const bare = await ctx.app.inject({
      method: 'POST',
      url: '/password/forgot',
      payload: { email: user.email },
      cookies: { 'XSRF-TOKEN': token, portal_xsrf_key: key },
    });
    expect(bare.statusCode).toBe(419);
    expect(bare.json()).toMatchObject({ message: 'CSRF token mismatch.' });
    // With the token it is accepted.
    expect((await forgot()).statusCode).toBe(200);
    // Another browser's valid token does not fit this browser's key, nor does this token without the key.
    const other = ctx.agent();
    await other.csrf();
    expect((await forgot({ 'x-xsrf-token': decodeURIComponent(other.jar.get('XSRF-TOKEN')!) })).statusCode).toBe(419);
    const keyless = await ctx.app.inject({
      method: 'POST',
      url: '/password/forgot',
      payload: { email: user.email },
      headers: { 'x-xsrf-token': token },
    });
    expect(keyless.statusCode).toBe(419);
    // A token whose expiry was moved on, or whose MAC was changed, is refused.
    const [expires, mac] = token.split('.') as [string, string];
    const later = (Number.parseInt(expires, 36) + minutes(600)).toString(36);
    // (The changed MAC differs from the real one whatever its last character was: a real one may end in "A".)
    const changed = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [`${later}.${mac}`, `${expires}.${changed}`, `${expires}.`, mac, '']) {
      expect((await forgot({ 'x-xsrf-token': forged })).statusCode, forged).toBe(419);
    }
    // Two hours on, the token has expired: refused, and csrf-cookie gives a fresh one that works.
    ctx.clock.advance(minutes(121));
    expect((await forgot()).statusCode).toBe(419);
    await agent.csrf();
    expect(agent.jar.get('XSRF-TOKEN')).not.toBe(token);
    expect((await forgot()).statusCode).toBe(200);
  });

  it('rotates the session at login: the id used before no longer works', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    await agent.csrf();
    const anonymousXsrf = decodeURIComponent(agent.jar.get('XSRF-TOKEN')!);
    const anonymousKey = agent.jar.get('portal_xsrf_key')!;
    expect(agent.jar.has('portal_session')).toBe(false);
    const login = await agent.login(user.email, TEST_PASSWORD);
    expect(login.statusCode).toBe(200);
    const first = agent.jar.get('portal_session')!;
    expect(first).toBeDefined();
    expect((await agent.get('/api/user')).json()).toMatchObject({ id: user.id });
    // Signed in, only the session's token counts: the anonymous pair from before is refused.
    const stale = await ctx.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { 'x-xsrf-token': anonymousXsrf },
      cookies: { portal_session: first, portal_xsrf_key: anonymousKey },
    });
    expect(stale.statusCode).toBe(419);
    // A second sign-in in the same browser gives fresh ids; the first no longer works.
    await agent.login(user.email, TEST_PASSWORD);
    const second = agent.jar.get('portal_session')!;
    expect(second).not.toBe(first);
    expect((await agent.get('/api/user')).json()).toMatchObject({ id: user.id });
    const old = await ctx.app.inject({ method: 'GET', url: '/api/user', cookies: { portal_session: first } });
    expect(old.statusCode).toBe(401);
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
