import { randomBytes } from 'node:crypto';
import { samlAcsPath, samlLogoutPath, samlMetadataPath } from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignedXml } from 'xml-crypto';
import type { Agent } from '../../../test/agent.js';
import { TEST_APP_KEY, useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { ATTRIBUTES, type SamlTestIdp, type SamlTestUser, startSamlIdp } from '../../../test/saml-idp-kit.js';
import { auditEvents, identityProviders, sessions, userIdentities, users } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';
import { encrypt } from '../../lib/crypto.js';
import { currentCode, newTotpSecret } from '../../lib/totp.js';

/**
 * Single sign-on through SAML 2.0 against a real SimpleSAMLphp on 127.0.0.1 (decision record 023). Forged
 * assertions are the IdP's own, changed after signing, stripped of their signature, or signed again with the IdP's
 * real key after a change (expired, another recipient, another issuer): each must be refused, with its reason audited.
 */
const APP_URL = 'http://portal.test';
const ctx = useTestApp({ env: { APP_URL } });
const db = () => ctx.db.handle.db;
let idp: SamlTestIdp;

beforeAll(async () => {
  idp = await startSamlIdp();
});
afterAll(async () => {
  await idp?.close();
});

const unique = () => randomBytes(3).toString('hex');
const superadminAgent = async () => ctx.signedIn(await createUser(db(), { role: 'superadmin' }));

/** A SAML provider made through the console from the IdP's metadata address, and registered at the IdP. */
async function makeProvider(options: { trustEmail?: boolean; trustMfa?: boolean } = {}) {
  const slug = `ssp-${unique()}`;
  const domain = `${slug}.example.org`;
  const agent = await superadminAgent();
  const res = await agent.post('/super/identity-providers', {
    slug,
    name: `Hospital ${slug}`,
    kind: 'saml',
    enabled: true,
    domains: [domain],
    trust_mfa: options.trustMfa ?? false,
    mfa_values: [],
    local_passwords_off: false,
    trust_email: options.trustEmail ?? true,
    claims: ATTRIBUTES,
    saml: { metadata_url: idp.metadataUrl },
  });
  expect(res.statusCode, res.body).toBe(201);
  const provider = res.json();
  idp.registerSp({
    entityId: provider.saml.sp_entity_id,
    acsUrl: provider.callback_url,
    logoutUrl: `${APP_URL}${samlLogoutPath(slug)}`,
  });
  return { ...provider, domain } as {
    id: number;
    slug: string;
    domain: string;
    callback_url: string;
    saml: { sp_entity_id: string };
  };
}
type Provider = Awaited<ReturnType<typeof makeProvider>>;

const nurse = (provider: Provider, extra: Partial<SamlTestUser> = {}): SamlTestUser => {
  const id = unique();
  return {
    uid: `nurse-${id}`,
    email: `nurse.${id}@${provider.domain}`,
    firstName: 'Joy',
    lastName: `Nurse ${id}`,
    groups: ['nurses'],
    ...extra,
  };
};

/** SP-initiated: the portal's AuthnRequest, the IdP's sign-in, and the form its page would post. */
async function idpForm(agent: Agent, provider: Provider, user: SamlTestUser, redirect = '/projects') {
  const start = await agent.get(`/auth/saml/${provider.slug}/login?redirect=${encodeURIComponent(redirect)}`);
  expect(start.statusCode).toBe(302);
  const location = new URL(start.headers.location as string);
  expect(location.origin).toBe(idp.baseUrl);
  expect(location.searchParams.get('SAMLRequest')).toBeTruthy();
  idp.signInAs(user);
  const form = await idp.authorize(location.href);
  expect(form.action).toBe(`${APP_URL}${samlAcsPath(provider.slug)}`);
  return form;
}

/** The browser posting the IdP's form to the ACS (no XSRF header: it comes from the IdP's page). */
const postForm = (agent: Agent, provider: Provider, form: Record<string, string | undefined>) =>
  agent.request({
    method: 'POST',
    url: samlAcsPath(provider.slug),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-xsrf-token': '' },
    payload: new URLSearchParams(
      Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined),
    ).toString(),
  });

const failures = async (provider: Provider) =>
  (
    await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.login_failed'), sql`${auditEvents.data}->>'provider' = ${provider.slug}`))
      .orderBy(auditEvents.id)
  ).map((e) => `${e.data.reason}:${e.data.error ?? ''}`);

const expectRefused = (res: { statusCode: number; headers: Record<string, unknown> }, key: string) => {
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe(`/member-login?sso_error=${key}`);
};

const decode = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8');
const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
const unsigned = (xml: string) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '');

/** The assertion changed, then signed again with the IdP's own key: only the portal's own checks can refuse it. */
function resign(samlResponse: string, change: (xml: string) => string): string {
  const signer = new SignedXml({
    privateKey: idp.privateKey,
    publicCert: idp.certificate,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  const assertion = "//*[local-name(.)='Assertion']";
  signer.addReference({
    xpath: assertion,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(change(unsigned(decode(samlResponse))), {
    location: { reference: `${assertion}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return encode(signer.getSignedXml());
}

describe('SAML 2.0 sign-in through SimpleSAMLphp', () => {
  it('publishes the portal’s SP metadata per provider, and none for an unknown one', async () => {
    const provider = await makeProvider();
    const agent = ctx.agent();
    const res = await agent.get(samlMetadataPath(provider.slug));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(res.body).toContain(`entityID="${APP_URL}${samlMetadataPath(provider.slug)}"`);
    expect(res.body).toContain(`Location="${APP_URL}${samlAcsPath(provider.slug)}"`);
    expect((await agent.get(samlMetadataPath('no-such-provider'))).statusCode).toBe(404);
  });

  it('reads the IdP’s metadata when the provider is saved, and says what is wrong with bad metadata', async () => {
    const provider = await makeProvider();
    const [row] = await db().select().from(identityProviders).where(eq(identityProviders.id, provider.id));
    expect(row).toMatchObject({ samlEntityId: idp.entityId, samlSsoUrl: idp.ssoUrl });
    expect(row!.samlCertificates).toHaveLength(1);
    expect(provider.saml).toMatchObject({ certificates: [expect.objectContaining({ subject: 'CN=Portal test IdP' })] });

    const agent = await superadminAgent();
    const base = {
      slug: `bad-${unique()}`,
      name: 'Bad metadata',
      kind: 'saml',
      enabled: true,
      domains: [],
      trust_mfa: false,
      mfa_values: [],
      local_passwords_off: false,
      claims: ATTRIBUTES,
    };
    const garbage = await agent.post('/super/identity-providers', { ...base, saml: { metadata_xml: '<nope' } });
    expect(garbage.statusCode).toBe(422);
    expect(garbage.json().errors['saml.metadata_xml'][0]).toMatch(/not well-formed/);
    const empty = await agent.post('/super/identity-providers', { ...base, saml: {} });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors['saml.entity_id'][0]).toMatch(/entity ID/);
  });

  it('signs a person in (SP-initiated): account created from the attributes, linked by NameID, then found again', async () => {
    const provider = await makeProvider();
    const user = nurse(provider);
    const agent = ctx.agent();
    const res = await postForm(agent, provider, await idpForm(agent, provider, user, '/projects'));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/projects');
    expect((await agent.get('/api/user/sessions')).json().sessions).toMatchObject([
      { sso_provider: `Hospital ${provider.slug}` },
    ]);
    const [created] = await db().select().from(users).where(sql`lower(${users.email}) = ${user.email}`);
    expect(created).toMatchObject({ firstName: 'Joy', lastName: user.lastName, status: 'active', passwordHash: null });
    const [link] = await db().select().from(userIdentities).where(eq(userIdentities.userId, created!.id));
    expect(link).toMatchObject({ providerId: provider.id, subject: user.uid });

    // The same person again, with another address: still the same account (the NameID links, not the email).
    const again = ctx.agent();
    const second = await postForm(
      again,
      provider,
      await idpForm(again, provider, { ...user, email: `moved.${user.email}` }),
    );
    expect(second.statusCode).toBe(303);
    expect((await db().select().from(userIdentities).where(eq(userIdentities.userId, created!.id))).length).toBe(1);
  });

  it('accepts an IdP-initiated sign-in and follows its RelayState only within the portal', async () => {
    const provider = await makeProvider();
    const start = `${idp.ssoUrl}?spentityid=${encodeURIComponent(provider.saml.sp_entity_id)}`;
    idp.signInAs(nurse(provider));
    const inside = await postForm(ctx.agent(), provider, await idp.authorize(`${start}&RelayState=%2Fprojects%2F1`));
    expect(inside.headers.location).toBe('/projects/1');
    idp.signInAs(nurse(provider));
    const outside = await postForm(
      ctx.agent(),
      provider,
      await idp.authorize(`${start}&RelayState=${encodeURIComponent('https://evil.example/')}`),
    );
    expect(outside.headers.location).toBe('/');
  });

  it('refuses a replayed assertion, a changed one, an unsigned one and one for another audience', async () => {
    const provider = await makeProvider();
    const agent = ctx.agent();
    // SP-initiated: the request it answered is spent, so the same response again names no open request.
    const answered = await idpForm(agent, provider, nurse(provider));
    expect((await postForm(agent, provider, answered)).statusCode).toBe(303);
    expectRefused(await postForm(ctx.agent(), provider, answered), 'failed');
    // IdP-initiated (no request to spend): the assertion's id is what refuses it the second time.
    const unasked = async () => {
      idp.signInAs(nurse(provider));
      return idp.authorize(`${idp.ssoUrl}?spentityid=${encodeURIComponent(provider.saml.sp_entity_id)}`);
    };
    const once = await unasked();
    expect((await postForm(ctx.agent(), provider, once)).statusCode).toBe(303);
    expectRefused(await postForm(ctx.agent(), provider, once), 'failed');

    const fresh = await unasked();
    const changed = decode(fresh.SAMLResponse).replace(/nurse\.[0-9a-f]{6}@/, 'chief.admin@');
    expect(changed).not.toBe(decode(fresh.SAMLResponse));
    expectRefused(await postForm(ctx.agent(), provider, { SAMLResponse: encode(changed) }), 'failed');
    expectRefused(
      await postForm(ctx.agent(), provider, { SAMLResponse: encode(unsigned(decode(fresh.SAMLResponse))) }),
      'failed',
    );

    // Another service provider's assertion, posted to this one's ACS.
    const otherEntity = `${APP_URL}/auth/saml/other-${unique()}/metadata`;
    idp.registerSp({ entityId: otherEntity, acsUrl: provider.callback_url });
    idp.signInAs(nurse(provider));
    const foreign = await idp.authorize(`${idp.ssoUrl}?spentityid=${encodeURIComponent(otherEntity)}`);
    expectRefused(await postForm(ctx.agent(), provider, foreign), 'failed');

    expect(await failures(provider)).toEqual([
      'sso_protocol:unknown_request',
      'sso_replay:assertion_replayed',
      'sso_protocol:invalid_signature',
      'sso_protocol:invalid_signature',
      'sso_protocol:wrong_audience',
    ]);
  });

  it('refuses, signed with the IdP’s real key: an expired assertion, another recipient, another issuer', async () => {
    const provider = await makeProvider();
    const agent = ctx.agent();
    const past = new Date(Date.now() - minutes(10)).toISOString().replace(/\.\d+Z$/, 'Z');
    const cases: [string, (xml: string) => string][] = [
      ['expired', (xml) => xml.replace(/NotOnOrAfter="[^"]+"/g, `NotOnOrAfter="${past}"`)],
      ['wrong_recipient', (xml) => xml.replace(/Recipient="[^"]+"/, 'Recipient="https://elsewhere.example/acs"')],
      [
        'wrong_issuer',
        (xml) => xml.replace(/<saml:Issuer>[^<]+<\/saml:Issuer>/g, '<saml:Issuer>https://evil.example</saml:Issuer>'),
      ],
    ];
    for (const [, change] of cases) {
      // IdP-initiated, so no request of the portal is spent by the refused answer.
      const form = await idpForm(agent, provider, nurse(provider));
      expectRefused(
        await postForm(ctx.agent(), provider, { SAMLResponse: resign(form.SAMLResponse, change) }),
        'failed',
      );
    }
    // The control: the same re-signing with no change is accepted (the refusals above are the portal's checks).
    const form = await idpForm(agent, provider, nurse(provider));
    expect(
      (await postForm(ctx.agent(), provider, { SAMLResponse: resign(form.SAMLResponse, (xml) => xml) })).statusCode,
    ).toBe(303);
    expect(await failures(provider)).toEqual([
      'sso_protocol:expired',
      'sso_protocol:wrong_recipient',
      'sso_protocol:wrong_issuer',
    ]);
  });

  it('refuses a response to a request that has expired (the portal clock 11 minutes on)', async () => {
    const provider = await makeProvider();
    const agent = ctx.agent();
    const form = await idpForm(agent, provider, nurse(provider));
    try {
      ctx.clock.advance(minutes(11));
      expectRefused(await postForm(agent, provider, form), 'failed');
    } finally {
      ctx.clock.set(new Date());
    }
    expect(await failures(provider)).toEqual(['sso_protocol:unknown_request']);
  });

  it('does not link by email for a provider not trusted for its addresses', async () => {
    const provider = await makeProvider({ trustEmail: false });
    const agent = ctx.agent();
    expectRefused(await postForm(agent, provider, await idpForm(agent, provider, nurse(provider))), 'no_email');
  });

  it('single logout: the IdP’s signed LogoutRequest ends the person’s portal session; an unsigned one is refused', async () => {
    const provider = await makeProvider();
    const agent = ctx.agent();
    expect((await postForm(agent, provider, await idpForm(agent, provider, nurse(provider)))).statusCode).toBe(303);
    expect((await agent.get('/api/user/sessions')).statusCode).toBe(200);

    const start = await idp.visit(
      `${idp.baseUrl}/saml2/idp/SingleLogoutService.php?ReturnTo=${encodeURIComponent(`${idp.baseUrl}/`)}`,
    );
    if (!('leftTo' in start)) throw new Error('The IdP sent no LogoutRequest');
    const request = new URL(start.leftTo);
    expect(request.pathname).toBe(samlLogoutPath(provider.slug));
    expect(request.searchParams.get('Signature')).toBeTruthy();

    const unsignedUrl = new URL(request.href);
    unsignedUrl.searchParams.delete('Signature');
    unsignedUrl.searchParams.delete('SigAlg');
    const refused = await ctx.agent().get(`${unsignedUrl.pathname}${unsignedUrl.search}`);
    expect(refused.headers.location).toBe('/member-login?sso_error=failed');
    expect((await agent.get('/api/user/sessions')).statusCode).toBe(200);

    const answer = await ctx.agent().get(`${request.pathname}${request.search}`);
    expect(answer.statusCode).toBe(302);
    const response = new URL(answer.headers.location as string);
    expect(response.origin).toBe(idp.baseUrl);
    expect(response.searchParams.get('SAMLResponse')).toBeTruthy();
    expect((await agent.get('/api/user/sessions')).statusCode).toBe(401);
    expect(await failures(provider)).toEqual(['sso_protocol:unsigned_logout']);
    const logouts = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.logout'), sql`${auditEvents.data}->>'provider' = ${provider.slug}`));
    expect(logouts.map((e) => e.data)).toEqual([{ provider: provider.slug, single_logout: true }]);
    // The IdP takes the answer and finishes its logout.
    expect(await idp.visit(response.href)).not.toHaveProperty('leftTo', expect.stringContaining(APP_URL));
  });

  it('single logout started here: signing out of the portal sends the LogoutRequest, the answer lands at sign-in', async () => {
    const provider = await makeProvider();
    const agent = ctx.agent();
    expect((await postForm(agent, provider, await idpForm(agent, provider, nurse(provider)))).statusCode).toBe(303);
    await agent.csrf();
    const out = await agent.post('/logout');
    expect(out.statusCode).toBe(200);
    const request = new URL(out.json().single_logout_url);
    expect(`${request.origin}${request.pathname}`).toBe(`${idp.baseUrl}/saml2/idp/SingleLogoutService.php`);
    expect(request.searchParams.get('SAMLRequest')).toBeTruthy();
    expect((await agent.get('/api/user/sessions')).statusCode).toBe(401);

    // The IdP ends its session and answers at the portal's single logout address.
    const answered = await idp.visit(request.href);
    if (!('leftTo' in answered)) throw new Error('The IdP sent no LogoutResponse');
    const response = new URL(answered.leftTo);
    expect(response.pathname).toBe(samlLogoutPath(provider.slug));
    expect(response.searchParams.get('SAMLResponse')).toBeTruthy();
    const landed = await agent.get(`${response.pathname}${response.search}`);
    expect(landed.headers.location).toBe('/member-login');
    expect(await failures(provider)).toEqual([]);

    // A password session, or a provider without single logout: nothing to tell, 204 as ever.
    const plain = await ctx.signedIn(await createUser(db(), {}));
    expect((await plain.post('/logout')).statusCode).toBe(204);
  });

  it('counts the provider’s multi-factor sign-in (AuthnContextClassRef) only for a provider trusted for it', async () => {
    const provider = await makeProvider({ trustMfa: true });
    const secret = newTotpSecret();
    const user = await createUser(db(), {
      email: `totp.${unique()}@${provider.domain}`,
      twoFactorSecret: encrypt(secret, TEST_APP_KEY),
      twoFactorConfirmedAt: ctx.clock.now(),
    });
    const sp = {
      entityId: provider.saml.sp_entity_id,
      acsUrl: provider.callback_url,
      logoutUrl: `${APP_URL}${samlLogoutPath(provider.slug)}`,
    };
    // Entra ID's value for a multi-factor sign-in, one of the defaults when the provider lists none.
    idp.registerSp({ ...sp, authnContext: 'http://schemas.microsoft.com/claims/multipleauthn' });
    const strong = ctx.agent();
    const signedIn = await postForm(
      strong,
      provider,
      await idpForm(strong, provider, nurse(provider, { email: user.email })),
    );
    expect(signedIn.headers.location).toBe('/projects');
    const [session] = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(session!.data.sso).toMatchObject({ providerId: provider.id, mfa: true });

    // A password-only sign-in at the same provider: the portal asks for its own code.
    idp.registerSp(sp);
    const weak = ctx.agent();
    const held = await postForm(weak, provider, await idpForm(weak, provider, nurse(provider, { email: user.email })));
    expect(held.headers.location).toBe('/member-login?sso=two_factor');
    const done = await weak.post('/login', { one_time_password: currentCode(secret, ctx.clock.now()) });
    expect(done.statusCode).toBe(200);
  });
});
