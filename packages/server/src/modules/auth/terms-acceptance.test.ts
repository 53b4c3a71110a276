import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { auditEvents, termsAcceptances } from '../../db/schema/index.js';
import { publishTermsVersion } from '../terms/terms.service.js';

describe('terms acceptance at sign-in', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('asks new users to accept the newest terms, records the acceptance, and asks again after a new version', async () => {
    const user = await createUser(db());
    const first = await publishTermsVersion(db(), {
      content: '<p>v1</p>',
      actorUserId: null,
      publishedAt: ctx.clock.now(),
    });
    const check = async () =>
      (await ctx.agent().get(`/check-terms?email=${encodeURIComponent(user.email)}`)).json().status;
    expect(await check()).toBe('needs_initial_acceptance');

    const refused = await ctx.agent().login(user.email, TEST_PASSWORD);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Please accept the terms and conditions to proceed.');

    const agent = ctx.agent({ ip: '10.6.0.1' });
    expect((await agent.login(user.email, TEST_PASSWORD, { accept_terms: true })).statusCode).toBe(200);
    const [acceptance] = await db().select().from(termsAcceptances).where(eq(termsAcceptances.userId, user.id));
    expect(acceptance).toMatchObject({ termsVersionId: first.id, ip: '10.6.0.1' });
    expect(await check()).toBe('accepted');
    expect((await ctx.agent().login(user.email, TEST_PASSWORD)).statusCode).toBe(200);

    ctx.clock.advance(60_000);
    await publishTermsVersion(db(), { content: '<p>v2</p>', actorUserId: null, publishedAt: ctx.clock.now() });
    expect(await check()).toBe('needs_update_acceptance');
    expect((await ctx.agent().login(user.email, TEST_PASSWORD)).json().message).toBe(
      'Please accept the terms and conditions to proceed.',
    );
    expect((await ctx.agent().login(user.email, TEST_PASSWORD, { accept_terms: true })).statusCode).toBe(200);
    const audit = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'terms.accept'), eq(auditEvents.actorUserId, user.id)));
    expect(audit).toHaveLength(2);
  });

  it('check-terms answers not_found for an unknown account and is rate-limited per address', async () => {
    const agent = ctx.agent({ ip: '10.7.0.1' });
    expect((await agent.get('/check-terms?email=nobody%40example.test')).json()).toEqual({ status: 'not_found' });
    for (let i = 0; i < 29; i++) await agent.get('/check-terms?email=nobody%40example.test');
    const limited = await agent.get('/check-terms?email=nobody%40example.test');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await ctx.agent({ ip: '10.7.0.2' }).get('/check-terms?email=x')).statusCode).toBe(200);
  });
});
