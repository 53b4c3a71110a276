import { randomBytes } from 'node:crypto';
import { DEFAULT_CLAIMS, oidcCallbackPath, SSO_ERRORS } from '@portal/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../../test/agent.js';
import { TEST_APP_KEY, useTestApp } from '../../../test/app.js';
import { addMember, createProject, createUser, TEST_PASSWORD } from '../../../test/factories.js';
import { startTestIdp, type TestAccount, type TestIdp } from '../../../test/oidc-provider-kit.js';
import { auditEvents, identityProviders, sessions, userIdentities, users } from '../../db/schema/index.js';
import { days, minutes } from '../../lib/clock.js';
import { encrypt } from '../../lib/crypto.js';
import { currentCode, newTotpSecret } from '../../lib/totp.js';
import { publishTermsVersion } from '../terms/terms.service.js';

/**
 * Single sign-on through OpenID Connect against a real oidc-provider on 127.0.0.1 (decision record 023): every
 * forged, expired, replayed or mismatched answer is produced by the provider or the browser, not by a mock.
 */
const APP_URL = 'http://portal.test';
const SECRET = 'client-secret-0123456789';
const ctx = useTestApp({ env: { APP_URL, MFA_REQUIRED_ROLES: 'superadmin,admin', MFA_GRACE_DAYS: '14' } });
const db = () => ctx.db.handle.db;
let idp: TestIdp;

beforeAll(async () => {
  idp = await startTestIdp();
});
afterAll(async () => {
  await idp?.close();
});

const unique = () => randomBytes(3).toString('hex');

/** A provider row of its own (slug, domain, client at the test provider), as the console would store it. */
async function makeProvider(overrides: Partial<typeof identityProviders.$inferInsert> = {}) {
  const slug = `idp-${unique()}`;
  const clientId = `client-${slug}`;
  idp.addClient({ client_id: clientId, client_secret: SECRET, redirect_uris: [`${APP_URL}${oidcCallbackPath(slug)}`] });
  const [row] = await db()
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
      ...overrides,
    })
    .returning();
  return { ...row!, domain: `${slug}.example.org` };
}

type Provider = Awaited<ReturnType<typeof makeProvider>>;

const person = (provider: Provider, extra: Partial<TestAccount> = {}): TestAccount => {
  const id = unique();
  return {
    sub: `sub-${id}`,
    email: `nurse.${id}@${provider.domain}`,
    email_verified: true,
    given_name: 'Joy',
    family_name: `Nurse ${id}`,
    preferred_username: `joy.${id}`,
    groups: ['nurses'],
    ...extra,
  };
};

/** Starts a sign-in at the portal and lets the provider sign `account` in: the callback URL the browser comes back to. */
async function toCallback(
  agent: Agent,
  provider: Provider,
  account: TestAccount,
  how: { amr?: string[]; acr?: string } = {},
  redirect = '/projects',
): Promise<string> {
  const start = await agent.get(`/auth/oidc/${provider.slug}/login?redirect=${encodeURIComponent(redirect)}`);
  expect(start.statusCode).toBe(302);
  const location = new URL(start.headers.location as string);
  expect(location.origin).toBe(idp.issuer);
  expect(location.searchParams.get('code_challenge_method')).toBe('S256');
  expect(location.searchParams.get('redirect_uri')).toBe(`${APP_URL}${oidcCallbackPath(provider.slug)}`);
  idp.signInAs(account, how);
  const callback = await idp.authorize(location.href, APP_URL);
  return callback.slice(APP_URL.length);
}

async function signIn(
  agent: Agent,
  provider: Provider,
  account: TestAccount,
  how: { amr?: string[]; acr?: string } = {},
) {
  return agent.get(await toCallback(agent, provider, account, how));
}

const failedReasons = async (provider: Provider) =>
  (
    await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.login_failed'), sql`${auditEvents.data}->>'provider' = ${provider.slug}`))
      .orderBy(auditEvents.id)
  ).map((e) => e.data.reason);

const userByEmail = async (email: string) =>
  (await db().select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`))[0];

const expectRefused = (res: { statusCode: number; headers: Record<string, unknown> }, key: keyof typeof SSO_ERRORS) => {
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe(`/member-login?sso_error=${key}`);
};

describe('OpenID Connect sign-in', () => {
  it('creates the account at a first sign-in, opens an ordinary session and audits both', async () => {
    const provider = await makeProvider();
    const account = person(provider);
    const agent = ctx.agent();
    const res = await signIn(agent, provider, account);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/projects');

    const user = await userByEmail(account.email!);
    expect(user).toMatchObject({
      status: 'active',
      passwordHash: null,
      firstName: 'Joy',
      lastName: account.family_name,
      username: account.preferred_username,
      role: 'user',
    });
    const [identity] = await db().select().from(userIdentities).where(eq(userIdentities.userId, user!.id));
    expect(identity).toMatchObject({ providerId: provider.id, subject: account.sub, email: account.email });
    expect(identity!.lastLoginAt).not.toBeNull();

    const check = await agent.get('/api/auth/check');
    expect(check.json()).toMatchObject({ authenticated: true, user: { id: user!.id } });
    const [session] = await db().select().from(sessions).where(eq(sessions.userId, user!.id));
    expect(session!.data.sso).toEqual({ providerId: provider.id, providerName: provider.name, mfa: false });
    expect(session!.data.ssoLogin).toBeUndefined();
    expect((await agent.get('/api/user/sessions')).json().sessions).toMatchObject([{ sso_provider: provider.name }]);

    const events = await db()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorUserId, user!.id))
      .orderBy(auditEvents.id);
    expect(events.map((e) => [e.action, e.data])).toEqual([
      ['auth.sso_user_created', { provider: provider.slug, email: account.email }],
      ['auth.login', { provider: provider.slug, two_factor: false }],
    ]);

    // The next sign-in finds the account by the subject, even when the provider's email changed.
    const again = ctx.agent();
    const second = await signIn(again, provider, { ...account, email: `renamed@${provider.domain}` });
    expect(second.headers.location).toBe('/projects');
    expect((await again.get('/api/auth/check')).json().user.id).toBe(user!.id);
  });

  it('makes a taken username unique and keeps the redirect to a same-origin path only', async () => {
    const provider = await makeProvider();
    const taken = await createUser(db(), { username: `taken.${unique()}` });
    const account = person(provider, { preferred_username: taken.username });
    const agent = ctx.agent();
    const res = await agent.get(await toCallback(agent, provider, account, {}, '//evil.example/x'));
    expect(res.headers.location).toBe('/');
    expect((await userByEmail(account.email!))!.username).toBe(`${taken.username}2`);
  });

  it('normalises the redirect before judging it: dot segments that resolve to another host land on /', async () => {
    const provider = await makeProvider();
    const cases: [string, string][] = [
      ['/..//evil.example/', '/'],
      ['/./..//evil', '/'],
      ['/%2e%2e//evil.example', '/'],
      ['/%2F%2Fevil.example', '/'],
      ['/projects/../member//projects', '/member/projects'],
    ];
    for (const [redirect, expected] of cases) {
      const agent = ctx.agent();
      const res = await agent.get(await toCallback(agent, provider, person(provider), {}, redirect));
      expect(res.headers.location, redirect).toBe(expected);
    }
  });

  it('links an existing account by a verified email on a claimed domain, and audits the link', async () => {
    const provider = await makeProvider();
    const existing = await createUser(db(), { email: `Head.Nurse.${unique()}@${provider.domain.toUpperCase()}` });
    const res = await signIn(ctx.agent(), provider, person(provider, { email: existing.email.toLowerCase() }));
    expect(res.headers.location).toBe('/projects');
    const links = await db().select().from(userIdentities).where(eq(userIdentities.userId, existing.id));
    expect(links).toHaveLength(1);
    const [linked] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.sso_linked'), eq(auditEvents.actorUserId, existing.id)));
    expect(linked!.data).toEqual({ provider: provider.slug, email: existing.email.toLowerCase() });
    // The password still works for an account whose domain keeps local passwords.
    expect((await ctx.agent().login(existing.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an unverified email, a missing email and an unclaimed domain, creating nobody', async () => {
    const provider = await makeProvider();
    const unverified = person(provider, { email_verified: false });
    expectRefused(await signIn(ctx.agent(), provider, unverified), 'no_email');
    const noEmail = person(provider, { email: undefined, email_verified: undefined });
    expectRefused(await signIn(ctx.agent(), provider, noEmail), 'no_email');
    const elsewhere = person(provider, { email: `someone.${unique()}@elsewhere.example.org` });
    expectRefused(await signIn(ctx.agent(), provider, elsewhere), 'not_linked');
    // Not even an existing account on an unclaimed domain is linked by its email.
    const outsider = await createUser(db(), { email: `x.${unique()}@other.example.org` });
    expectRefused(await signIn(ctx.agent(), provider, person(provider, { email: outsider.email })), 'not_linked');

    expect(await userByEmail(unverified.email!)).toBeUndefined();
    expect(await userByEmail(elsewhere.email!)).toBeUndefined();
    const links = await db().select().from(userIdentities).where(eq(userIdentities.providerId, provider.id));
    expect(links).toEqual([]);
    expect(await failedReasons(provider)).toEqual([
      'sso_email_unverified',
      'sso_email_unverified',
      'sso_domain_not_claimed',
      'sso_domain_not_claimed',
    ]);
  });

  it('takes the email of a provider trusted for its emails without email_verified (Entra ID, AD FS), never against it', async () => {
    const provider = await makeProvider({ trustEmail: true });
    const silent = person(provider, { email_verified: undefined });
    expect((await signIn(ctx.agent(), provider, silent)).headers.location).toBe('/projects');
    expect(await userByEmail(silent.email!)).toBeDefined();
    // A provider that says the address is not verified is believed, trusted or not.
    const denied = person(provider, { email_verified: false });
    expectRefused(await signIn(ctx.agent(), provider, denied), 'no_email');
    expect(await userByEmail(denied.email!)).toBeUndefined();
    // Without the trust, silence is not verification.
    const untrusted = await makeProvider();
    const quiet = person(untrusted, { email_verified: undefined });
    expectRefused(await signIn(ctx.agent(), untrusted, quiet), 'no_email');
    expect(await userByEmail(quiet.email!)).toBeUndefined();
  });

  it('refuses a callback whose state does not match, and the login it belonged to is spent', async () => {
    const provider = await makeProvider();
    const account = person(provider);
    const agent = ctx.agent();
    const callback = new URL(await toCallback(agent, provider, account), APP_URL);
    const state = callback.searchParams.get('state')!;
    callback.searchParams.set('state', `${state}x`);
    const res = await agent.get(callback.pathname + callback.search);
    expectRefused(res, 'failed');
    // The right state now finds nothing pending: used once, whatever happened.
    callback.searchParams.set('state', state);
    expectRefused(await agent.get(callback.pathname + callback.search), 'expired');
    expect(await userByEmail(account.email!)).toBeUndefined();
    expect(await failedReasons(provider)).toEqual(['sso_protocol', 'sso_no_login_pending']);
    expect((await agent.get('/api/auth/check')).json().authenticated).toBe(false);
  });

  it('refuses a replayed callback: the same URL again, and the same code with a fresh state', async () => {
    const provider = await makeProvider();
    const account = person(provider);
    const agent = ctx.agent();
    const callback = await toCallback(agent, provider, account);
    expect((await agent.get(callback)).headers.location).toBe('/projects');
    expectRefused(await agent.get(callback), 'expired');

    // Another browser starts its own sign-in, then presents the spent code with its own (valid) state.
    const thief = ctx.agent();
    const start = await thief.get(`/auth/oidc/${provider.slug}/login`);
    const freshState = new URL(start.headers.location as string).searchParams.get('state')!;
    const replay = new URL(callback, APP_URL);
    replay.searchParams.set('state', freshState);
    expectRefused(await thief.get(replay.pathname + replay.search), 'failed');
    expect((await thief.get('/api/auth/check')).json().authenticated).toBe(false);
    expect(await failedReasons(provider)).toEqual(['sso_no_login_pending', 'sso_protocol']);
  });

  it('refuses a code issued for another client (the portal registered with a different client id)', async () => {
    const provider = await makeProvider();
    idp.addClient({
      client_id: `other-${provider.slug}`,
      client_secret: SECRET,
      redirect_uris: [`${APP_URL}${oidcCallbackPath(provider.slug)}`],
    });
    const agent = ctx.agent();
    const callback = await toCallback(agent, provider, person(provider));
    // The provider issued the code (and its ID token's audience) for the first client; the portal is now the other.
    await db()
      .update(identityProviders)
      .set({ clientId: `other-${provider.slug}`, updatedAt: new Date(ctx.clock.now().getTime() + 1000) })
      .where(eq(identityProviders.id, provider.id));
    expectRefused(await agent.get(callback), 'failed');
    expect((await agent.get('/api/auth/check')).json().authenticated).toBe(false);
    const [failed] = await db()
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'auth.login_failed'), sql`${auditEvents.data}->>'provider' = ${provider.slug}`),
      );
    expect(failed!.data).toMatchObject({ reason: 'sso_protocol', error: 'invalid_grant' });
  });

  it.each([
    ['another audience', (claims: Record<string, unknown>) => ({ ...claims, aud: 'another-client' })],
    ['another issuer', (claims: Record<string, unknown>) => ({ ...claims, iss: 'https://evil.example' })],
    ['another nonce', (claims: Record<string, unknown>) => ({ ...claims, nonce: 'replayed-nonce' })],
  ])('refuses an ID token for %s, though signed with the provider’s own key', async (_case, forge) => {
    const provider = await makeProvider();
    const account = person(provider);
    const agent = ctx.agent();
    const callback = await toCallback(agent, provider, account);
    idp.state.forgeIdToken = forge;
    try {
      expectRefused(await agent.get(callback), 'failed');
    } finally {
      idp.state.forgeIdToken = null;
    }
    expect(await userByEmail(account.email!)).toBeUndefined();
    expect(await failedReasons(provider)).toEqual(['sso_protocol']);
  });

  it('accepts the same re-signed ID token unchanged (the refusals above are the checks, not the re-signing)', async () => {
    const provider = await makeProvider();
    const account = person(provider);
    const agent = ctx.agent();
    const callback = await toCallback(agent, provider, account);
    idp.state.forgeIdToken = (claims) => claims;
    try {
      const res = await agent.get(callback);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).not.toContain('sso_error');
    } finally {
      idp.state.forgeIdToken = null;
    }
  });

  it('refuses an expired ID token (the portal clock past its expiry and the 60-second tolerance)', async () => {
    const provider = await makeProvider();
    const account = person(provider);
    const agent = ctx.agent();
    idp.state.idTokenTtl = 5;
    try {
      const callback = await toCallback(agent, provider, account);
      ctx.clock.advance(minutes(2));
      expectRefused(await agent.get(callback), 'failed');
    } finally {
      idp.state.idTokenTtl = 600;
      ctx.clock.set(new Date());
    }
    expect(await userByEmail(account.email!)).toBeUndefined();
    expect(await failedReasons(provider)).toEqual(['sso_protocol']);
  });

  it('refuses the sign-in when the login took longer than 10 minutes', async () => {
    const provider = await makeProvider();
    const agent = ctx.agent();
    const callback = await toCallback(agent, provider, person(provider));
    ctx.clock.advance(minutes(11));
    try {
      expectRefused(await agent.get(callback), 'expired');
    } finally {
      ctx.clock.set(new Date());
    }
  });

  it('refuses an ID token signed by a key the provider does not publish', async () => {
    const provider = await makeProvider();
    const account = person(provider);
    const agent = ctx.agent();
    const callback = await toCallback(agent, provider, account);
    idp.state.jwksOverride = idp.foreignJwks();
    try {
      expectRefused(await agent.get(callback), 'failed');
    } finally {
      idp.state.jwksOverride = null;
    }
    expect(await userByEmail(account.email!)).toBeUndefined();
    expect((await agent.get('/api/auth/check')).json().authenticated).toBe(false);
  });

  it('refuses a disabled account, linked or not, and an unknown or disabled provider', async () => {
    const provider = await makeProvider();
    const disabled = await createUser(db(), { email: `off.${unique()}@${provider.domain}`, status: 'disabled' });
    const res = await signIn(ctx.agent(), provider, person(provider, { email: disabled.email }));
    expectRefused(res, 'disabled');
    expect(await db().select().from(userIdentities).where(eq(userIdentities.userId, disabled.id))).toEqual([]);

    const account = person(provider);
    expect((await signIn(ctx.agent(), provider, account)).headers.location).toBe('/projects');
    const user = await userByEmail(account.email!);
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, user!.id));
    expectRefused(await signIn(ctx.agent(), provider, account), 'disabled');
    expect(await failedReasons(provider)).toEqual(['sso_user_disabled', 'sso_user_disabled']);

    expect((await ctx.agent().get('/auth/oidc/no-such-provider/login')).headers.location).toBe(
      '/member-login?sso_error=unknown_provider',
    );
    await db().update(identityProviders).set({ enabled: false }).where(eq(identityProviders.id, provider.id));
    expect((await ctx.agent().get(`/auth/oidc/${provider.slug}/login`)).headers.location).toBe(
      '/member-login?sso_error=unknown_provider',
    );
  });

  it('lets a provider trusted for MFA satisfy the two-factor rule when its amr says mfa', async () => {
    const provider = await makeProvider({ trustMfa: true, mfaValues: [] });
    const project = await createProject(db());
    const long = new Date(ctx.clock.now().getTime() - days(60));
    const admin = await createUser(db(), { email: `admin.${unique()}@${provider.domain}`, createdAt: long });
    await addMember(db(), project.id, admin.id, 'admin');

    // Signed in with a password, the overdue admin is stopped at the two-factor setup.
    const withPassword = await ctx.signedIn(admin);
    expect((await withPassword.get('/api/user/sessions')).statusCode).toBe(403);

    const trusted = ctx.agent();
    const res = await signIn(trusted, provider, person(provider, { email: admin.email }), { amr: ['pwd', 'mfa'] });
    expect(res.headers.location).toBe('/projects');
    expect((await trusted.get('/api/user/sessions')).statusCode).toBe(200);
    expect((await trusted.get('/api/auth/check')).json().user.mfa).toMatchObject({ overdue: false });
    const [login] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.login'), eq(auditEvents.actorUserId, admin.id)))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(login!.data).toEqual({ provider: provider.slug, two_factor: true });

    // A configured value in acr counts too.
    await db()
      .update(identityProviders)
      .set({ mfaValues: ['urn:example:loa:mfa'], updatedAt: new Date(ctx.clock.now().getTime() + 1000) })
      .where(eq(identityProviders.id, provider.id));
    const byAcr = ctx.agent();
    await signIn(byAcr, provider, person(provider, { email: admin.email }), { acr: 'urn:example:loa:mfa' });
    expect((await byAcr.get('/api/user/sessions')).statusCode).toBe(200);

    // Without one of its values in amr or acr, the same provider's sign-in does not count as two-factor.
    const single = ctx.agent();
    await signIn(single, provider, person(provider, { email: admin.email }), { amr: ['pwd'] });
    expect((await single.get('/api/user/sessions')).statusCode).toBe(403);
  });

  it('sends a person with portal two-factor to the code step when the provider is not trusted for MFA', async () => {
    const provider = await makeProvider({ trustMfa: false });
    const secret = newTotpSecret();
    const user = await createUser(db(), {
      email: `totp.${unique()}@${provider.domain}`,
      twoFactorSecret: encrypt(secret, TEST_APP_KEY),
      twoFactorConfirmedAt: ctx.clock.now(),
    });
    const agent = ctx.agent();
    const res = await signIn(agent, provider, person(provider, { email: user.email }), { amr: ['mfa'] });
    expect(res.headers.location).toBe('/member-login?sso=two_factor');
    expect((await agent.get('/api/auth/check')).json().authenticated).toBe(false);
    // No password, no email: the pending step knows the account.
    const wrong = await agent.post('/login', { one_time_password: '000000' });
    expect(wrong.statusCode).toBe(422);
    const done = await agent.post('/login', { one_time_password: currentCode(secret, ctx.clock.now()) });
    expect(done.statusCode).toBe(200);
    expect(done.json().user.id).toBe(user.id);
    const [session] = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(session!.data.sso).toMatchObject({ providerId: provider.id, mfa: false });
  });

  it('refuses a password sign-in on a domain whose provider turns local passwords off, except a superadmin', async () => {
    const provider = await makeProvider({ localPasswordsOff: true });
    const member = await createUser(db(), { email: `pw.${unique()}@${provider.domain}` });
    const refused = await ctx.agent().login(member.email, TEST_PASSWORD);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(SSO_ERRORS.local_passwords_off);
    // A wrong password says nothing of the provider.
    const guess = await ctx.agent().login(member.email, 'Wrong-password-1!');
    expect(guess.json().message).toBe('These credentials do not match our records.');
    // Break-glass: a superadmin on that domain still signs in with a password.
    const superadmin = await createUser(db(), { email: `root.${unique()}@${provider.domain}`, role: 'superadmin' });
    expect((await ctx.agent().login(superadmin.email, TEST_PASSWORD)).statusCode).toBe(200);
    // A disabled provider no longer refuses.
    await db().update(identityProviders).set({ enabled: false }).where(eq(identityProviders.id, provider.id));
    expect((await ctx.agent().login(member.email, TEST_PASSWORD)).statusCode).toBe(200);
    // The same person signs in through the provider meanwhile.
    await db().update(identityProviders).set({ enabled: true }).where(eq(identityProviders.id, provider.id));
    expect((await signIn(ctx.agent(), provider, person(provider, { email: member.email }))).headers.location).toBe(
      '/projects',
    );
  });

  // Last: published terms apply to every account of this file's database from here on.
  it('holds a person whose newest terms are not accepted at the terms step, then finishes', async () => {
    await publishTermsVersion(db(), { content: '<p>Terms</p>', actorUserId: null, publishedAt: ctx.clock.now() });
    const provider = await makeProvider();
    const account = person(provider);
    const agent = ctx.agent();
    const res = await signIn(agent, provider, account);
    expect(res.headers.location).toBe('/member-login?sso=terms');
    expect((await agent.get('/api/auth/check')).json().authenticated).toBe(false);

    const declined = await agent.post('/auth/sso/accept-terms', { accept_terms: false });
    expect(declined.statusCode).toBe(422);
    expect(declined.json().message).toBe('Please accept the terms and conditions to proceed.');
    const noCsrf = await agent.post('/auth/sso/accept-terms', { accept_terms: true }, { 'x-xsrf-token': 'wrong' });
    expect(noCsrf.statusCode).toBe(419);

    const accepted = await agent.post('/auth/sso/accept-terms', { accept_terms: true });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ redirect: '/projects' });
    const user = await userByEmail(account.email!);
    expect((await agent.get('/api/auth/check')).json().user.id).toBe(user!.id);
    const actions = (
      await db().select().from(auditEvents).where(eq(auditEvents.actorUserId, user!.id)).orderBy(auditEvents.id)
    ).map((e) => e.action);
    expect(actions).toEqual(['auth.sso_user_created', 'terms.accept', 'auth.login']);
    // Spent: a second acceptance finds nothing pending.
    expect((await agent.post('/auth/sso/accept-terms', { accept_terms: true })).json().message).toBe(
      SSO_ERRORS.expired,
    );
  });
});
