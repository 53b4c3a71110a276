import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { auditEvents } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';

describe('POST /login', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('signs in with the email or the username, case-insensitively', async () => {
    const user = await createUser(db(), { email: 'Nurse.Joy@Example.test', username: 'NurseJoy' });
    for (const login of ['nurse.joy@example.test', 'NURSE.JOY@EXAMPLE.TEST', 'nursejoy']) {
      const res = await ctx.agent().login(login, TEST_PASSWORD);
      expect(res.statusCode, login).toBe(200);
      expect(res.json().user).toMatchObject({ id: user.id, username: 'NurseJoy' });
      expect(res.json().setup_two_factor).toBeUndefined();
    }
  });

  it('re-hashes a password stored with older argon2 parameters at the next login', async () => {
    const { hash } = await import('@node-rs/argon2');
    const weakerHash = await hash(TEST_PASSWORD, { algorithm: 2, memoryCost: 8192, timeCost: 1, parallelism: 1 });
    const user = await createUser(db(), { password: null, passwordHash: weakerHash });
    expect((await ctx.agent().login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    const { rows } = await ctx.db.handle.pool.query('select password_hash from users where id = $1', [user.id]);
    expect(rows[0].password_hash).not.toBe(weakerHash);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await ctx.agent().login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('answers bad input with 400 and a field message', async () => {
    const agent = ctx.agent();
    await agent.csrf();
    const res = await agent.post('/login', { email: '', password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.email).toEqual(['Enter your email or username.']);
    // A 10,000-character address is answered in words, not in the validation library's ("Too big: expected ...").
    const long = await agent.post('/login', { email: `${'x'.repeat(10_000)}@example.com`, password: 'x' });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({
      message: 'Enter at most 254 characters.',
      errors: { email: ['Enter at most 254 characters.'] },
    });
  });

  it('answers a wrong password and an unknown account with the same 422 and message, in similar time', async () => {
    const user = await createUser(db());
    const timed = async (login: string) => {
      const agent = ctx.agent({ ip: `10.9.0.${Math.floor(Math.random() * 200)}` });
      await agent.csrf();
      const started = performance.now();
      const res = await agent.post('/login', { email: login, password: 'Wrong-password-1!' });
      return { res, ms: performance.now() - started };
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await timed(user.email);
      const b = await timed(`nobody-${i}@example.test`);
      expect(a.res.statusCode).toBe(422);
      expect(b.res.statusCode).toBe(422);
      expect(a.res.json().message).toBe('These credentials do not match our records.');
      expect(b.res.json()).toEqual(a.res.json());
      known.push(a.ms);
      unknown.push(b.ms);
    }
    const median = (xs: number[]) => xs.sort((p, q) => p - q)[1]!;
    // Both verify an argon2 hash: neither is an order of magnitude faster than the other.
    const ratio = median(known) / median(unknown);
    expect(ratio).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
  });

  it('refuses disabled and invited accounts with the same message as a wrong password', async () => {
    const disabled = await createUser(db(), { status: 'disabled' });
    const invited = await createUser(db(), { status: 'invited', password: null });
    for (const user of [disabled, invited]) {
      const res = await ctx.agent().login(user.email, TEST_PASSWORD);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('These credentials do not match our records.');
    }
  });

  it('throttles after 5 failures per account and address in 15 minutes, with the wait', async () => {
    const user = await createUser(db());
    const agent = ctx.agent({ ip: '10.2.0.1' });
    for (let i = 0; i < 5; i++) expect((await agent.login(user.email, 'Wrong-password-1!')).statusCode).toBe(422);
    const refused = await agent.login(user.email, TEST_PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('Too many login attempts. Please try again in 15 minutes.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    // Another address is not throttled for this account.
    expect((await ctx.agent({ ip: '10.2.0.2' }).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    ctx.clock.advance(minutes(15) + 1000);
    expect((await agent.login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('throttles an unknown account exactly like a known one', async () => {
    const agent = ctx.agent({ ip: '10.3.0.1' });
    for (let i = 0; i < 5; i++)
      expect((await agent.login('ghost@example.test', 'Wrong-password-1!')).statusCode).toBe(422);
    expect((await agent.login('ghost@example.test', 'Wrong-password-1!')).statusCode).toBe(429);
  });

  it('locks an account for 15 minutes after 10 consecutive failures, from any address, and audits it', async () => {
    const user = await createUser(db());
    for (let i = 0; i < 10; i++) {
      const res = await ctx.agent({ ip: `10.4.${i}.1` }).login(user.username, 'Wrong-password-1!');
      expect(res.statusCode).toBe(422);
    }
    const locked = await ctx.agent({ ip: '10.4.99.1' }).login(user.username, TEST_PASSWORD);
    expect(locked.statusCode).toBe(429);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.lockout'), eq(auditEvents.actorUserId, user.id)));
    expect(events).toHaveLength(1);
    const failures = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.login_failed'), eq(auditEvents.actorUserId, user.id)));
    expect(failures.map((e) => e.data.reason)).toEqual(Array(10).fill('bad_password'));
    ctx.clock.advance(minutes(15) + 1000);
    expect((await ctx.agent({ ip: '10.4.99.1' }).login(user.username, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('a success resets the consecutive count', async () => {
    const user = await createUser(db());
    for (let i = 0; i < 9; i++) await ctx.agent({ ip: `10.5.${i}.1` }).login(user.email, 'Wrong-password-1!');
    expect((await ctx.agent({ ip: '10.5.50.1' }).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) await ctx.agent({ ip: `10.5.${60 + i}.1` }).login(user.email, 'Wrong-password-1!');
    expect((await ctx.agent({ ip: '10.5.70.1' }).login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });
});
