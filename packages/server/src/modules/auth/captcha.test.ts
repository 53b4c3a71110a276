import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../test/agent.js';
import { useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';

/** Solves a challenge from the server as the widget does, and encodes the payload the widget would send. */
async function solve(agent: Agent): Promise<string> {
  const challenge = (await agent.get('/api/public/captcha/challenge')).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the challenge');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

describe('ALTCHA captcha', () => {
  const ctx = useTestApp({ env: { CAPTCHA_PROVIDER: 'altcha', CAPTCHA_COST: '200' } });

  it('is announced in the public config', async () => {
    expect((await ctx.agent().get('/api/public/config')).json()).toEqual({
      inactivityTimeoutMinutes: 15,
      captcha: { provider: 'altcha', challengeUrl: '/api/public/captcha/challenge' },
    });
  });

  it('is checked before the password, and a solution works once', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    await agent.csrf();
    const missing = await agent.post('/login', { email: user.email, password: TEST_PASSWORD });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('Please complete the captcha.');

    const forged = await agent.post('/login', {
      email: user.email,
      password: TEST_PASSWORD,
      'g-recaptcha-response': Buffer.from('{"x":1}').toString('base64'),
    });
    expect(forged.json().message).toBe('The captcha could not be verified. Please try again.');

    const payload = await solve(agent);
    expect(
      (await agent.post('/login', { email: user.email, password: TEST_PASSWORD, 'g-recaptcha-response': payload }))
        .statusCode,
    ).toBe(200);
    const replay = ctx.agent();
    await replay.csrf();
    const again = await replay.post('/login', {
      email: user.email,
      password: TEST_PASSWORD,
      'g-recaptcha-response': payload,
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('The captcha could not be verified. Please try again.');
  });

  it('refuses an expired challenge', async () => {
    const user = await createUser(ctx.db.handle.db);
    const agent = ctx.agent();
    await agent.csrf();
    const payload = await solve(agent);
    ctx.clock.advance(11 * 60_000);
    const res = await agent.post('/login', {
      email: user.email,
      password: TEST_PASSWORD,
      'g-recaptcha-response': payload,
    });
    expect(res.json().message).toBe('The captcha could not be verified. Please try again.');
  });

  it('guards the forgot-password form (field `captcha`)', async () => {
    const agent = ctx.agent();
    await agent.csrf();
    expect((await agent.post('/password/forgot', { email: 'a@example.test' })).json().message).toBe(
      'Please complete the captcha.',
    );
    const ok = await agent.post('/password/forgot', { email: 'a@example.test', captcha: await solve(agent) });
    expect(ok.statusCode).toBe(200);
  });
});
