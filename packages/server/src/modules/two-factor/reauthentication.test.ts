import { randomBytes } from 'node:crypto';
import { DEFAULT_CLAIMS, MESSAGES, oidcCallbackPath, oidcLoginPath } from '@portal/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../../test/agent.js';
import { createAgent } from '../../../test/agent.js';
import { TEST_APP_KEY, useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { startTestIdp, type TestIdp } from '../../../test/oidc-provider-kit.js';
import { identityProviders, users } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';
import { encrypt } from '../../lib/crypto.js';
import { currentCode } from '../../lib/totp.js';

/**
 * Re-authentication (issue 29): turning two-factor on (starting and confirming), off, resetting it (a superadmin's
 * reset of someone else's too) and new recovery codes need a sign-in or the password within the last 10 minutes.
 */
const APP_URL = 'http://portal.test';
const SECRET = 'client-secret-0123456789';
const STEP = 30_000;
const ctx = useTestApp({ env: { APP_URL } });
const db = () => ctx.db.handle.db;
let idp: TestIdp;

beforeAll(async () => {
  idp = await startTestIdp();
  // The provider stamps its ID tokens with the real time; the portal's clock moves ahead by minutes in a test.
  idp.state.idTokenTtl = 3600;
});
afterAll(async () => {
  await idp?.close();
});

const row = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0]!;

/** 423 with the password offered: what a password account is answered once its confirmation is stale. */
function expectAsked(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(423);
  expect(res.json()).toMatchObject({
    code: 'PASSWORD_CONFIRMATION_REQUIRED',
    message: MESSAGES.passwordConfirmationRequired,
    details: { reauthenticate: { password: true, sso: null } },
  });
}

function expectWrongPassword(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(422);
  expect(res.json()).toMatchObject({ errors: { password: ['The password is incorrect.'] } });
}

/** Sets two-factor up through the API on a fresh sign-in: answers the secret. */
async function enrol(agent: Agent) {
  const { secret } = (await agent.post('/api/two-factor/enable')).json();
  ctx.clock.advance(STEP);
  expect((await agent.post('/api/two-factor/confirm', { code: currentCode(secret, ctx.clock.now()) })).statusCode).toBe(
    200,
  );
  return secret as string;
}

describe('re-authentication for two-factor changes', () => {
  it('does not ask a user who signed in two minutes ago, for any of the four actions', async () => {
    const user = await createUser(db());
    const agent = await ctx.signedIn(user);
    ctx.clock.advance(minutes(2));
    const setup = await agent.post('/api/two-factor/enable');
    expect(setup.statusCode).toBe(200);
    ctx.clock.advance(STEP);
    const code = currentCode(setup.json().secret, ctx.clock.now());
    expect((await agent.post('/api/two-factor/confirm', { code })).statusCode).toBe(200);
    expect((await agent.post('/api/two-factor/recovery-codes', {})).statusCode).toBe(200);
    expect((await agent.delete('/api/two-factor', {})).statusCode).toBe(204);
  });

  it('counts completing the two-factor challenge as a sign-in', async () => {
    const user = await createUser(db());
    const secret = await enrol(await ctx.signedIn(user));
    ctx.clock.advance(minutes(11));
    const agent = ctx.agent();
    expect((await agent.login(user.email, TEST_PASSWORD)).json()).toEqual({ two_factor: true });
    ctx.clock.advance(STEP);
    const signedIn = await agent.post('/login', {
      email: user.email,
      one_time_password: currentCode(secret, ctx.clock.now()),
    });
    expect(signedIn.statusCode).toBe(200);
    ctx.clock.advance(minutes(2));
    expect((await agent.post('/api/two-factor/recovery-codes', {})).statusCode).toBe(200);
  });

  it('asks again 11 minutes after sign-in for each action: 423, a wrong password 422, the password goes through', async () => {
    const user = await createUser(db());
    const agent = await ctx.signedIn(user);

    // Start enrolment.
    ctx.clock.advance(minutes(11));
    expectAsked(await agent.post('/api/two-factor/enable'));
    expect((await row(user.id)).twoFactorSecret).toBeNull();
    expectWrongPassword(await agent.post('/api/two-factor/enable', { password: 'Not-the-password-1!' }));
    const setup = await agent.post('/api/two-factor/enable', { password: TEST_PASSWORD });
    expect(setup.statusCode).toBe(200);

    // Confirm enrolment: the code is not used up by the refused requests.
    ctx.clock.advance(minutes(11));
    const code = currentCode(setup.json().secret, ctx.clock.now());
    expectAsked(await agent.post('/api/two-factor/confirm', { code }));
    expectWrongPassword(await agent.post('/api/two-factor/confirm', { code, password: 'Not-the-password-1!' }));
    expect((await row(user.id)).twoFactorConfirmedAt).toBeNull();
    const confirmed = await agent.post('/api/two-factor/confirm', { code, password: TEST_PASSWORD });
    expect(confirmed.statusCode).toBe(200);

    // Regenerate recovery codes.
    ctx.clock.advance(minutes(11));
    expectAsked(await agent.post('/api/two-factor/recovery-codes', {}));
    expectWrongPassword(await agent.post('/api/two-factor/recovery-codes', { password: 'Not-the-password-1!' }));
    expect((await agent.post('/api/two-factor/recovery-codes', { password: TEST_PASSWORD })).statusCode).toBe(200);

    // Disable, confirmed through POST /api/user/confirm-password this time: the next call within 10 minutes is free.
    ctx.clock.advance(minutes(11));
    expectAsked(await agent.delete('/api/two-factor', {}));
    expect((await row(user.id)).twoFactorConfirmedAt).not.toBeNull();
    expectWrongPassword(await agent.post('/api/user/confirm-password', { password: 'Not-the-password-1!' }));
    expect((await agent.post('/api/user/confirm-password', { password: TEST_PASSWORD })).statusCode).toBe(204);
    ctx.clock.advance(minutes(9));
    expect((await agent.delete('/api/two-factor', {})).statusCode).toBe(204);
    expect((await row(user.id)).twoFactorSecret).toBeNull();
  });

  it('keeps a stolen session older than 10 minutes from enrolling its own authenticator', async () => {
    const user = await createUser(db());
    const victim = await ctx.signedIn(user);
    ctx.clock.advance(minutes(11));
    // The thief holds the session cookie only: a fresh XSRF token (new ids, same data) is no new confirmation.
    const thief = createAgent(ctx.app, { ip: '203.0.113.9' });
    thief.jar.set('portal_session', victim.jar.get('portal_session')!);
    await thief.csrf();
    expect((await thief.get('/api/user')).statusCode).toBe(200);
    expectAsked(await thief.post('/api/two-factor/enable'));
    expectAsked(await thief.post('/api/two-factor/enable', {}));
    expect((await row(user.id)).twoFactorSecret).toBeNull();
  });

  it("asks the acting superadmin before resetting another user's two-factor", async () => {
    const superadmin = await createUser(db(), { role: 'superadmin' });
    const nurse = await createUser(db(), { twoFactorSecret: 'sealed', twoFactorConfirmedAt: ctx.clock.now() });
    const agent = await ctx.signedIn(superadmin);
    ctx.clock.advance(minutes(2));
    // Signed in two minutes ago: not asked (another user's reset only needs the actor's own confirmation).
    const other = await createUser(db(), { twoFactorSecret: 'sealed', twoFactorConfirmedAt: ctx.clock.now() });
    expect((await agent.post(`/super/users/${other.id}/reset-two-factor`)).statusCode).toBe(200);

    ctx.clock.advance(minutes(11));
    expectAsked(await agent.post(`/super/users/${nurse.id}/reset-two-factor`));
    expect((await row(nurse.id)).twoFactorConfirmedAt).not.toBeNull();
    expectWrongPassword(
      await agent.post(`/super/users/${nurse.id}/reset-two-factor`, { password: 'Not-the-password-1!' }),
    );
    const reset = await agent.post(`/super/users/${nurse.id}/reset-two-factor`, { password: TEST_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().two_factor_enabled).toBe(false);
    // The other actions ask nothing.
    expect((await agent.post(`/super/users/${nurse.id}/send-password-reset`)).statusCode).toBe(200);
  });

  describe('an account without a password (single sign-on only)', () => {
    async function ssoProvider() {
      const slug = `idp-${randomBytes(3).toString('hex')}`;
      const clientId = `client-${slug}`;
      idp.addClient({
        client_id: clientId,
        client_secret: SECRET,
        redirect_uris: [`${APP_URL}${oidcCallbackPath(slug)}`],
      });
      const [provider] = await db()
        .insert(identityProviders)
        .values({
          slug,
          name: `Hospital ${slug}`,
          kind: 'oidc',
          enabled: true,
          domains: [`${slug}.example.org`],
          trustMfa: false,
          mfaValues: [],
          localPasswordsOff: false,
          claims: { ...DEFAULT_CLAIMS },
          issuer: idp.issuer,
          clientId,
          clientSecretSealed: encrypt(SECRET, TEST_APP_KEY),
          scopes: 'openid email profile',
        })
        .returning();
      return provider!;
    }

    /** The whole authorization code flow through the test provider, back to `redirect`. */
    async function ssoSignIn(agent: Agent, slug: string, sub: string, email: string, redirect: string) {
      const start = await agent.get(`/auth/oidc/${slug}/login?redirect=${encodeURIComponent(redirect)}`);
      expect(start.statusCode).toBe(302);
      idp.signInAs({ sub, email, email_verified: true, given_name: 'Joy', family_name: 'Nurse' });
      const callback = await idp.authorize(start.headers.location as string, APP_URL);

      const landed = await agent.get(callback.slice(APP_URL.length));
      expect(landed.statusCode).toBe(302);
      return landed.headers.location;
    }

    it('is told to sign in again with its provider, and signing in again (back to the same screen) lets it proceed', async () => {
      // The provider stamps its tokens with the real time: start from it (the tests above moved the clock on).
      ctx.clock.set(new Date());
      const provider = await ssoProvider();
      const sub = `sub-${randomBytes(3).toString('hex')}`;
      const email = `joy.${sub}@${provider.slug}.example.org`;
      const agent = ctx.agent();
      expect(await ssoSignIn(agent, provider.slug, sub, email, '/two-factor-settings')).toBe('/two-factor-settings');
      const user = (await db().select().from(users).where(eq(users.email, email)))[0]!;
      expect(user.passwordHash).toBeNull();
      // A single sign-on is a sign-in: not asked two minutes later.
      ctx.clock.advance(minutes(2));
      expect((await agent.post('/api/two-factor/enable')).statusCode).toBe(200);

      ctx.clock.advance(minutes(11));
      const name = provider.name;
      const asked = await agent.post('/api/two-factor/enable', { password: 'anything' });
      expect(asked.statusCode).toBe(423);
      expect(asked.json()).toMatchObject({
        message: `For your security, sign in again with ${name} to continue.`,
        details: { reauthenticate: { password: false, sso: { name, login_url: oidcLoginPath(provider.slug) } } },
      });

      expect(await ssoSignIn(agent, provider.slug, sub, email, '/two-factor-settings')).toBe('/two-factor-settings');
      expect((await agent.post('/api/two-factor/enable')).statusCode).toBe(200);
    });
  });
});
