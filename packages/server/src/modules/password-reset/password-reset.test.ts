import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { auditEvents, passwordResetTokens } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';

const NEW_PASSWORD = 'Wj4$nBc8!tRy6#Pq';
const SENT = 'If an account with this email exists, a password reset link has been sent to it.';

describe('password reset', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function requestLink(email: string, ip = '10.30.0.1') {
    const agent = ctx.agent({ ip });
    await agent.csrf();
    const res = await agent.post('/password/forgot', { email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: SENT });
    const mail = ctx.mailbox.last(email);
    const link = mail?.text.match(/https?:\/\/\S+\/reset-password\?token=([0-9a-f]{64})&email=(\S+)/);
    return { mail, token: link?.[1], emailParam: link ? decodeURIComponent(link[2]!) : undefined };
  }

  async function reset(body: Record<string, string>) {
    const agent = ctx.agent({ ip: '10.31.0.1' });
    await agent.csrf();
    return agent.post('/password/reset', body);
  }

  it('emails a one-hour link with a 64-hex token, stored hashed', async () => {
    const user = await createUser(db());
    const { mail, token, emailParam } = await requestLink(user.email);
    expect(mail?.subject).toBe('Reset your password');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(emailParam).toBe(user.email);
    const rows = await db().select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toBe(token);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(minutes(60));
  });

  it('answers an unknown email the same way and sends nothing', async () => {
    const before = ctx.mailbox.sent.length;
    const { mail } = await requestLink('nobody-here@example.test');
    expect(mail).toBeUndefined();
    expect(ctx.mailbox.sent.length).toBe(before);
  });

  it('sets the new password, ends every session, emails a notice, and does not sign in', async () => {
    const user = await createUser(db());
    const signedIn = ctx.agent();
    await signedIn.login(user.email, TEST_PASSWORD);
    const { token } = await requestLink(user.email);
    const res = await reset({
      token: token!,
      email: user.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'portal_session' && c.value)).toBeUndefined();
    expect((await signedIn.get('/api/user')).statusCode).toBe(401);
    expect(ctx.mailbox.last(user.email)?.subject).toBe('Your password was changed');
    expect((await ctx.agent().login(user.email, TEST_PASSWORD)).statusCode).toBe(422);
    expect((await ctx.agent().login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    const actions = (await db().select().from(auditEvents).where(eq(auditEvents.actorUserId, user.id))).map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['password.reset_requested', 'password.reset_completed']));
  });

  it('a link works once', async () => {
    const user = await createUser(db());
    const { token } = await requestLink(user.email);
    const body = { token: token!, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    expect((await reset(body)).statusCode).toBe(200);
    const again = await reset({ ...body, password: 'Kx7#qPv9!mZt2$Lw', password_confirmation: 'Kx7#qPv9!mZt2$Lw' });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('This password reset link is invalid or has expired. Please request a new one.');
  });

  it('a link expires after 60 minutes', async () => {
    const user = await createUser(db());
    const { token } = await requestLink(user.email);
    ctx.clock.advance(minutes(61));
    const res = await reset({
      token: token!,
      email: user.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/invalid or has expired/);
  });

  it('a newer request voids the older link', async () => {
    const user = await createUser(db());
    const { token: first } = await requestLink(user.email);
    const { token: second } = await requestLink(user.email, '10.30.0.2');
    const body = { email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    expect((await reset({ ...body, token: first! })).statusCode).toBe(422);
    expect((await reset({ ...body, token: second! })).statusCode).toBe(200);
  });

  it('refuses a token for another email, a mismatch, a weak password and the current password', async () => {
    const user = await createUser(db());
    const other = await createUser(db());
    const { token } = await requestLink(user.email);
    const wrongEmail = await reset({
      token: token!,
      email: other.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(wrongEmail.statusCode).toBe(422);

    const mismatch = await reset({
      token: token!,
      email: user.email,
      password: NEW_PASSWORD,
      password_confirmation: `${NEW_PASSWORD}x`,
    });
    expect(mismatch.json()).toMatchObject({
      message: 'Passwords do not match. Please make sure both password fields are identical.',
      errors: {
        password_confirmation: ['Passwords do not match. Please make sure both password fields are identical.'],
      },
    });

    const weak = await reset({
      token: token!,
      email: user.email,
      password: 'password',
      password_confirmation: 'password',
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password[0]).toMatch(/^Password does not meet security requirements: /);
    expect(weak.json().errors.password[0]).toContain('Password must be at least 12 characters long');

    const same = await reset({
      token: token!,
      email: user.email,
      password: TEST_PASSWORD,
      password_confirmation: TEST_PASSWORD,
    });
    expect(same.json()).toMatchObject({
      errors: { password: ['The new password must be different from your current password.'] },
    });

    // None of these spent the link.
    expect(
      (await reset({ token: token!, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });

  it('answers a malformed link with 400 and the SPEC message', async () => {
    const res = await reset({ token: 'xyz', email: 'not-an-email', password: 'a', password_confirmation: 'a' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.token).toEqual(['Invalid link for password reset.']);
    expect(res.json().errors.email).toEqual(['Invalid link for password reset.']);
  });

  it('limits forgot requests per address', async () => {
    const agent = ctx.agent({ ip: '10.32.0.1' });
    await agent.csrf();
    for (let i = 0; i < 10; i++)
      expect((await agent.post('/password/forgot', { email: `x${i}@example.test` })).statusCode).toBe(200);
    expect((await agent.post('/password/forgot', { email: 'y@example.test' })).statusCode).toBe(429);
    const audit = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'password.reset_requested'), eq(auditEvents.ip, '10.32.0.1')));
    expect(audit).toHaveLength(0);
  });
});
