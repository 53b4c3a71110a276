import type { IdentityProviderInput } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_APP_KEY, useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { auditEvents, identityProviders, userIdentities } from '../../db/schema/index.js';
import { decrypt } from '../../lib/crypto.js';

const APP_URL = 'https://portal.example.org';
const PATH = '/super/identity-providers';

const input = (overrides: Partial<IdentityProviderInput> = {}): IdentityProviderInput => ({
  slug: 'entra',
  name: 'Entra ID',
  kind: 'oidc',
  enabled: true,
  domains: ['hospital.org'],
  trust_mfa: true,
  mfa_values: [],
  local_passwords_off: false,
  claims: { email: 'email', first_name: 'given_name', last_name: 'family_name', username: 'upn', groups: 'groups' },
  oidc: {
    issuer: 'https://login.example.com/tenant/v2.0',
    client_id: 'portal-client',
    client_secret: 'super-secret-value',
    scopes: 'openid email profile',
  },
  ...overrides,
});

describe('superadmin: identity providers', () => {
  const ctx = useTestApp({ env: { APP_URL } });
  const db = () => ctx.db.handle.db;
  const superadminAgent = async () => ctx.signedIn(await createUser(db(), { role: 'superadmin' }));
  const eventsOf = async (id: number) =>
    db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'identity_provider'), eq(auditEvents.subjectId, String(id))))
      .orderBy(auditEvents.id);

  it('creates, lists, changes and removes a provider; the secret is sealed, never returned, named only in the audit', async () => {
    const agent = await superadminAgent();
    const created = await agent.post(PATH, input({ slug: 'Entra', domains: ['Hospital.org', 'hospital.org'] }));
    expect(created.statusCode).toBe(201);
    const provider = created.json();
    expect(provider).toMatchObject({
      slug: 'entra',
      kind: 'oidc',
      domains: ['hospital.org'],
      oidc: {
        issuer: 'https://login.example.com/tenant/v2.0',
        client_id: 'portal-client',
        scopes: 'openid email profile',
        has_secret: true,
      },
      callback_url: `${APP_URL}/auth/oidc/entra/callback`,
      linked_users: 0,
    });
    expect(created.body).not.toContain('super-secret-value');
    const [row] = await db().select().from(identityProviders).where(eq(identityProviders.id, provider.id));
    expect(row!.clientSecretSealed).toMatch(/^v1\./);
    expect(decrypt(row!.clientSecretSealed!, TEST_APP_KEY)).toBe('super-secret-value');

    const list = await agent.get(PATH);
    expect(list.statusCode).toBe(200);
    expect(list.json().providers).toEqual([provider]);
    expect(list.body).not.toContain('super-secret-value');

    // No secret sent: the stored one stays.
    const renamed = await agent.put(`${PATH}/${provider.id}`, {
      ...input({ name: 'Entra (staff)', trust_mfa: false }),
      oidc: { ...input().oidc, client_secret: '' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Entra (staff)', trust_mfa: false, oidc: { has_secret: true } });
    const [kept] = await db().select().from(identityProviders).where(eq(identityProviders.id, provider.id));
    expect(kept!.clientSecretSealed).toBe(row!.clientSecretSealed);

    const rotated = await agent.put(`${PATH}/${provider.id}`, {
      ...input({ name: 'Entra (staff)', trust_mfa: false }),
      oidc: { ...input().oidc, client_secret: 'rotated-secret-value' },
    });
    expect(rotated.statusCode).toBe(200);

    const events = await eventsOf(provider.id);
    expect(events.map((e) => e.action)).toEqual([
      'identity_provider.create',
      'identity_provider.update',
      'identity_provider.update',
    ]);
    expect(events[0]!.data.changes).toMatchObject({
      slug: { from: null, to: 'entra' },
      client_secret: { changed: true },
    });
    expect(events[1]!.data.changes).toEqual({
      name: { from: 'Entra ID', to: 'Entra (staff)' },
      trust_mfa: { from: true, to: false },
    });
    expect(events[2]!.data.changes).toEqual({ client_secret: { changed: true } });
    for (const event of events) {
      expect(JSON.stringify(event.data)).not.toMatch(/super-secret-value|rotated-secret-value|v1\./);
    }

    const user = await createUser(db());
    await db().insert(userIdentities).values({ providerId: provider.id, subject: 'abc', userId: user.id });
    expect((await agent.get(PATH)).json().providers[0].linked_users).toBe(1);
    const removed = await agent.delete(`${PATH}/${provider.id}`);
    expect(removed.statusCode).toBe(204);
    expect(await db().select().from(userIdentities).where(eq(userIdentities.providerId, provider.id))).toEqual([]);
    const [deleted] = (await eventsOf(provider.id)).slice(-1);
    expect(deleted).toMatchObject({
      action: 'identity_provider.delete',
      data: { name: 'Entra (staff)', slug: 'entra', linked_users: 1 },
    });
    expect((await agent.delete(`${PATH}/${provider.id}`)).statusCode).toBe(404);
    expect((await agent.put(`${PATH}/2147483000`, input({ slug: 'other' }))).statusCode).toBe(404);
  });

  it('refuses a taken short name (409) and a domain another provider claims (422), naming them', async () => {
    const agent = await superadminAgent();
    const first = (
      await agent.post(PATH, input({ slug: 'okta', name: 'Okta', domains: ['north.org', 'east.org'] }))
    ).json();
    const taken = await agent.post(PATH, input({ slug: 'okta', name: 'Okta 2', domains: ['south.org'] }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors.slug).toEqual(['Another provider already uses the short name “okta”.']);
    const claimed = await agent.post(PATH, input({ slug: 'keycloak', domains: ['west.org', 'east.org'] }));
    expect(claimed.statusCode).toBe(422);
    expect(claimed.json().errors.domains).toEqual(['east.org is already claimed by “Okta”.']);
    // The provider keeps its own domains and short name on an update.
    const same = await agent.put(`${PATH}/${first.id}`, input({ slug: 'okta', name: 'Okta', domains: ['east.org'] }));
    expect(same.statusCode).toBe(200);
    const second = (await agent.post(PATH, input({ slug: 'google', name: 'Google', domains: ['south.org'] }))).json();
    const renamedOnto = await agent.put(`${PATH}/${second.id}`, input({ slug: 'okta', domains: ['south.org'] }));
    expect(renamedOnto.statusCode).toBe(409);
  });

  it('validates the input with a sentence per field', async () => {
    const agent = await superadminAgent();
    const bad = await agent.post(PATH, {
      ...input({ slug: '-bad slug', domains: ['@hospital.org'] }),
      oidc: { issuer: 'ftp://x', client_id: '', scopes: 'email profile' },
    });
    expect(bad.statusCode).toBe(400);
    const errors = bad.json().errors;
    expect(errors.slug).toEqual([
      'The short name is 1 to 40 lowercase letters, digits or hyphens, starting with a letter or digit.',
    ]);
    expect(errors['domains.0']).toEqual(['Enter domains such as hospital.org, without the @.']);
    expect(errors['oidc.issuer']).toEqual(['Enter an address starting with https://.']);
    expect(errors['oidc.client_id']).toEqual(['Enter the client ID.']);
    expect(errors['oidc.scopes']).toEqual(['The scopes must include openid.']);
    // A SAML provider needs its SAML settings (the OpenID Connect ones are not read).
    const saml = await agent.post(PATH, { ...input(), kind: 'saml' });
    expect(saml.statusCode).toBe(400);
    expect(saml.json().errors.saml).toEqual(['Enter the SAML settings or its metadata.']);
    const kind = await agent.post(PATH, { ...input(), kind: 'ws-fed' });
    expect(kind.json().errors.kind).toEqual(['Pick OpenID Connect or SAML 2.0.']);
    expect(await db().select().from(identityProviders).where(eq(identityProviders.slug, '-bad slug'))).toEqual([]);
  });

  it('is for superadmins only: 401 signed out, 403 for others, 419 without the XSRF token', async () => {
    expect((await ctx.agent().get(PATH)).statusCode).toBe(401);
    const anonymous = ctx.agent();
    await anonymous.csrf();
    expect((await anonymous.post(PATH, input({ slug: 'anon' }))).statusCode).toBe(401);
    const member = await ctx.signedIn(await createUser(db()));
    expect((await member.get(PATH)).statusCode).toBe(403);
    expect((await member.post(PATH, input({ slug: 'member' }))).statusCode).toBe(403);
    expect((await member.post(PATH, { nonsense: true })).statusCode).toBe(403);
    const agent = await superadminAgent();
    const noToken = await agent.request({
      method: 'POST',
      url: PATH,
      payload: input({ slug: 'no-token' }),
      headers: { 'x-xsrf-token': 'forged' },
    });
    expect(noToken.statusCode).toBe(419);
    expect(await db().select().from(identityProviders).where(eq(identityProviders.slug, 'no-token'))).toEqual([]);
  });

  it('lists the enabled providers to the sign-in page, without settings', async () => {
    const agent = await superadminAgent();
    await agent.post(PATH, input({ slug: 'shown', name: 'Shown', domains: ['shown.org'], local_passwords_off: true }));
    await agent.post(PATH, input({ slug: 'hidden', name: 'Hidden', domains: ['hidden.org'], enabled: false }));
    const res = await ctx.agent().get('/api/public/identity-providers');
    expect(res.statusCode).toBe(200);
    const shown = res.json().providers.find((p: { slug: string }) => p.slug === 'shown');
    expect(shown).toEqual({
      slug: 'shown',
      name: 'Shown',
      kind: 'oidc',
      domains: ['shown.org'],
      login_url: '/auth/oidc/shown/login',
      local_passwords_off: true,
    });
    expect(res.json().providers.some((p: { slug: string }) => p.slug === 'hidden')).toBe(false);
    expect(res.body).not.toMatch(/client|secret|issuer/);
  });
});
