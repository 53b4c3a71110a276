import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../test/agent.js';
import { useTestApp } from '../../../test/app.js';
import { createProject, createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { auditEvents, projectMemberships, users } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';
import { sha256 } from '../../lib/crypto.js';
import { currentCode } from '../../lib/totp.js';

const STEP = 30_000;

describe('two-factor authentication', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  /** Signs in, sets up two-factor with the app, and returns the secret and the recovery codes. */
  async function enrol(agent: Agent, login: string) {
    expect((await agent.login(login, TEST_PASSWORD)).statusCode).toBe(200);
    const setup = await agent.post('/api/two-factor/enable');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url, qr_svg } = setup.json();
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(qr_svg).toContain('<svg');
    expect((await agent.get('/api/two-factor')).json()).toMatchObject({ enabled: false, pending: true });
    ctx.clock.advance(STEP);
    const confirm = await agent.post('/api/two-factor/confirm', { code: currentCode(secret, ctx.clock.now()) });
    expect(confirm.statusCode).toBe(200);
    const codes: string[] = confirm.json().recovery_codes;
    expect(codes).toHaveLength(10);
    return { secret: secret as string, codes };
  }

  it('is only on after a code confirms it; the secret is stored encrypted', async () => {
    const user = await createUser(db());
    const agent = ctx.agent();
    await agent.login(user.email, TEST_PASSWORD);
    const { secret } = (await agent.post('/api/two-factor/enable')).json();
    const wrong = await agent.post('/api/two-factor/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe('The provided two-factor authentication code was invalid.');
    expect((await agent.post('/api/two-factor/confirm', { code: '12ab' })).statusCode).toBe(400);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row!.twoFactorConfirmedAt).toBeNull();
    expect(row!.twoFactorSecret).not.toContain(secret);
    // Signing in still needs no code while it is not confirmed.
    expect((await ctx.agent().login(user.email, TEST_PASSWORD)).json().user).toBeDefined();
  });

  it('asks for a code after the password, then signs in without the password or a new captcha', async () => {
    const user = await createUser(db());
    const { secret } = await enrol(ctx.agent(), user.email);
    const agent = ctx.agent();
    const first = await agent.login(user.email, TEST_PASSWORD);
    expect(first.json()).toEqual({ two_factor: true });
    // Not signed in yet.
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    ctx.clock.advance(STEP);
    const second = await agent.post('/login', {
      email: user.email,
      one_time_password: currentCode(secret, ctx.clock.now()),
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().user.id).toBe(user.id);
    expect((await agent.get('/api/user')).statusCode).toBe(200);
  });

  it('never accepts the same code twice', async () => {
    const user = await createUser(db());
    const { secret } = await enrol(ctx.agent(), user.email);
    ctx.clock.advance(STEP);
    const code = currentCode(secret, ctx.clock.now());
    const a = ctx.agent();
    await a.login(user.email, TEST_PASSWORD);
    expect((await a.post('/login', { email: user.email, one_time_password: code })).statusCode).toBe(200);
    const b = ctx.agent({ ip: '10.20.0.2' });
    await b.login(user.email, TEST_PASSWORD);
    const replay = await b.post('/login', { email: user.email, one_time_password: code });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().message).toBe('The provided two-factor authentication code was invalid.');
  });

  it('accepts a recovery code once, and audits its use', async () => {
    const user = await createUser(db());
    const { codes } = await enrol(ctx.agent(), user.email);
    const a = ctx.agent();
    await a.login(user.email, TEST_PASSWORD);
    expect((await a.post('/login', { email: user.email, one_time_password: codes[0]!.toUpperCase() })).statusCode).toBe(
      200,
    );
    const b = ctx.agent({ ip: '10.21.0.2' });
    await b.login(user.email, TEST_PASSWORD);
    expect((await b.post('/login', { email: user.email, one_time_password: codes[0] })).statusCode).toBe(422);
    expect((await b.post('/login', { email: user.email, one_time_password: codes[1] })).statusCode).toBe(200);
    const used = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'two_factor.recovery_code_used'), eq(auditEvents.actorUserId, user.id)));
    expect(used).toHaveLength(2);
    expect((await b.get('/api/two-factor')).json().recovery_codes_remaining).toBe(8);
  });

  it('stores recovery codes as salted argon2id hashes and takes them typed without the dash', async () => {
    const user = await createUser(db());
    const { codes } = await enrol(ctx.agent(), user.email);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    const stored = row!.twoFactorRecoveryCodes!;
    expect(stored).toHaveLength(10);
    for (const hash of stored) expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(new Set(stored.map((h) => h.split('$')[4])).size).toBe(10); // a salt of its own each
    const a = ctx.agent();
    await a.login(user.email, TEST_PASSWORD);
    const typed = ` ${codes[2]!.replace('-', '').toUpperCase()} `;
    expect((await a.post('/login', { email: user.email, one_time_password: typed })).statusCode).toBe(200);
  });

  it('still accepts a recovery code stored the old way (bare SHA-256), once', async () => {
    const user = await createUser(db());
    await enrol(ctx.agent(), user.email);
    await db()
      .update(users)
      .set({ twoFactorRecoveryCodes: [sha256('abcde-fghjk')] })
      .where(eq(users.id, user.id));
    const a = ctx.agent();
    await a.login(user.email, TEST_PASSWORD);
    expect((await a.post('/login', { email: user.email, one_time_password: 'ABCDE-FGHJK' })).statusCode).toBe(200);
    const b = ctx.agent({ ip: '10.21.0.9' });
    await b.login(user.email, TEST_PASSWORD);
    expect((await b.post('/login', { email: user.email, one_time_password: 'abcde-fghjk' })).statusCode).toBe(422);
  });

  it('drops the pending code step after 5 minutes', async () => {
    const user = await createUser(db());
    const { secret } = await enrol(ctx.agent(), user.email);
    const agent = ctx.agent();
    await agent.login(user.email, TEST_PASSWORD);
    ctx.clock.advance(minutes(5) + STEP);
    const late = await agent.post('/login', {
      email: user.email,
      one_time_password: currentCode(secret, ctx.clock.now()),
    });
    // Without the pending step this is a fresh login without a password.
    expect(late.statusCode).toBe(422);
    expect((await agent.get('/api/user')).statusCode).toBe(401);
  });

  it('needs the password again to regenerate codes or turn it off', async () => {
    const user = await createUser(db());
    const agent = ctx.agent();
    const { codes } = await enrol(agent, user.email);
    ctx.clock.advance(minutes(16));
    await agent.get('/api/user');
    const refused = await agent.post('/api/two-factor/recovery-codes', {});
    expect(refused.statusCode).toBe(423);
    expect(refused.json().message).toBe('Please confirm your password to continue.');
    expect((await agent.post('/api/two-factor/recovery-codes', { password: 'wrong' })).statusCode).toBe(422);
    const fresh = await agent.post('/api/two-factor/recovery-codes', { password: TEST_PASSWORD });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().recovery_codes).not.toContain(codes[0]);
    // Confirmed a moment ago: turning off needs no second prompt within 15 minutes.
    expect((await agent.delete('/api/two-factor', {})).statusCode).toBe(204);
    expect((await agent.get('/api/two-factor')).json()).toMatchObject({ enabled: false, pending: false });
    expect((await ctx.agent().login(user.email, TEST_PASSWORD)).json().user).toBeDefined();
    const actions = (await db().select().from(auditEvents).where(eq(auditEvents.actorUserId, user.id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(
      expect.arrayContaining(['two_factor.enable', 'two_factor.recovery_codes_regenerated', 'two_factor.disable']),
    );
  });

  it('signed-out calls answer 401', async () => {
    const agent = ctx.agent();
    await agent.csrf();
    expect((await agent.get('/api/two-factor')).statusCode).toBe(401);
    expect((await agent.post('/api/two-factor/enable')).statusCode).toBe(401);
    expect((await agent.post('/api/two-factor/confirm', { code: '123456' })).statusCode).toBe(401);
    expect((await agent.delete('/api/two-factor', {})).statusCode).toBe(401);
  });

  describe('policy for required roles', () => {
    it('tells a superadmin the days left, then refuses everything but sign-in, sign-out and setup', async () => {
      const admin = await createUser(db(), { role: 'superadmin', createdAt: ctx.clock.now() });
      const agent = ctx.agent();
      const login = await agent.login(admin.email, TEST_PASSWORD);
      expect(login.json().setup_two_factor).toBe(true);
      const during = await agent.get('/api/member/projects');
      expect(during.statusCode).toBe(200);
      expect(during.headers['x-mfa-grace-days-remaining']).toBe('14');

      ctx.clock.advance(14 * 86_400_000 + 1000);
      // That session ended long ago (12 h): sign in again, as a browser would.
      const later = ctx.agent();
      expect((await later.login(admin.email, TEST_PASSWORD)).statusCode).toBe(200);
      const after = await later.get('/api/member/projects');
      expect(after.statusCode).toBe(403);
      expect(after.json()).toMatchObject({ mfa_required: true });
      expect((await later.get('/api/auth/check')).statusCode).toBe(200);
      expect((await later.get('/api/two-factor')).statusCode).toBe(200);
      const setup = await later.post('/api/two-factor/enable');
      expect(setup.statusCode).toBe(200);
      ctx.clock.advance(STEP);
      await later.post('/api/two-factor/confirm', { code: currentCode(setup.json().secret, ctx.clock.now()) });
      const unblocked = await later.get('/api/member/projects');
      expect(unblocked.statusCode).toBe(200);
      expect(unblocked.headers['x-mfa-grace-days-remaining']).toBeUndefined();
    });

    it('applies to project admins but not to simple members', async () => {
      const project = await createProject(db());
      const admin = await createUser(db(), { createdAt: new Date(ctx.clock.now().getTime() - 30 * 86_400_000) });
      const member = await createUser(db(), { createdAt: new Date(ctx.clock.now().getTime() - 30 * 86_400_000) });
      await db()
        .insert(projectMemberships)
        .values([
          { projectId: project.id, userId: admin.id, projectRole: 'admin' },
          { projectId: project.id, userId: member.id, projectRole: 'simple' },
        ]);
      const a = ctx.agent();
      await a.login(admin.email, TEST_PASSWORD);
      expect((await a.get('/api/member/projects')).statusCode).toBe(403);
      const m = ctx.agent();
      expect((await m.login(member.email, TEST_PASSWORD)).json().setup_two_factor).toBeUndefined();
      const list = await m.get('/api/member/projects');
      expect(list.statusCode).toBe(200);
      expect(list.json().projects).toEqual([
        { id: project.id, name: project.name, slug: project.slug, active_apps: [] },
      ]);
    });
  });
});
