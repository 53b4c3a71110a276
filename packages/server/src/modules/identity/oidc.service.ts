import { oidcCallbackPath, type SsoErrorKey } from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { Database, DbOrTx } from '../../db/client.js';
import { type SessionData, userIdentities, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { decrypt } from '../../lib/crypto.js';
import { findUserById, type UserRow } from '../auth/users.repository.js';
import type { ProjectNotices } from '../notifications/notices.js';
import { applyGroupMappings, claimedGroups, replaceDirectoryGroups } from './group-mappings.service.js';
import { uniqueUsername } from './identity-users.service.js';
import { emailDomain, type ProviderRow } from './providers.service.js';

/**
 * OpenID Connect sign-in (decision record 023) through openid-client: discovery, the authorization code flow with
 * PKCE (S256), state and nonce; the library checks the ID token (signature against the provider's JWKS, issuer,
 * audience, expiry, nonce) with a 60-second clock tolerance, on the portal's clock. Nothing here checks a token by
 * hand. What the callback then decides: which account the provider's subject is, linked or created only for a
 * verified email on a claimed domain.
 */

export const SSO_LOGIN_MS = 10 * 60_000;
const CLOCK_TOLERANCE_SECONDS = 60;
const DEFAULT_MFA_VALUES = ['mfa'];

/** A refused single sign-on: the key the sign-in page shows, and the reason the audit records (`sso_*`). */
export class SsoRefusal extends Error {
  constructor(
    readonly key: SsoErrorKey,
    readonly reason: string,
    readonly userId: number | null = null,
    /** The library's error code, for the audit and the log (never shown to the person). */
    readonly detail?: string,
  ) {
    super(reason);
    this.name = 'SsoRefusal';
  }
}

export type SsoLogin = NonNullable<SessionData['ssoLogin']>;

/** Plain http only for a provider on this machine (the tests' oidc-provider); anything else must be https. */
export function isLoopbackHttp(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** A same-origin path to return to: one leading '/', printable, no backslash; anything else is '/'. */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || value.length > 1000 || !value.startsWith('/')) return '/';
  if (value.startsWith('//') || value.startsWith('/\\')) return '/';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || char === '\\') return '/';
  }
  return value;
}

// The discovery document of each provider, fetched once per version of its settings (id + updated_at, issuer) and
// again after an hour.
const DISCOVERY_TTL_MS = 60 * 60_000;
const discovered = new Map<number, { version: string; at: number; server: oidc.ServerMetadata }>();

/**
 * The provider's openid-client Configuration: discovery cached per provider (see above); the configuration
 * itself made per step, so the library's time is the portal's clock (`now`) and a rotated key is fetched anew.
 */
export async function configurationFor(provider: ProviderRow, appKey: Buffer, now: Date): Promise<oidc.Configuration> {
  if (provider.kind !== 'oidc' || !provider.issuer || !provider.clientId) {
    throw new SsoRefusal('unknown_provider', 'sso_not_configured');
  }
  const insecure = isLoopbackHttp(provider.issuer);
  const version = `${provider.updatedAt.getTime()} ${provider.issuer}`;
  let cached = discovered.get(provider.id);
  if (cached?.version !== version || now.getTime() - cached.at > DISCOVERY_TTL_MS) {
    let found: oidc.Configuration;
    try {
      found = await oidc.discovery(new URL(provider.issuer), provider.clientId, undefined, undefined, {
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        timeout: 10,
      });
    } catch (error) {
      throw new SsoRefusal('failed', 'sso_discovery_failed', null, errorCode(error));
    }
    cached = {
      version,
      at: now.getTime(),
      server: JSON.parse(JSON.stringify(found.serverMetadata())) as oidc.ServerMetadata,
    };
    discovered.set(provider.id, cached);
  }
  const secret = provider.clientSecretSealed ? decrypt(provider.clientSecretSealed, appKey) : undefined;
  const methods = cached.server.token_endpoint_auth_methods_supported;
  const auth = !secret
    ? oidc.None()
    : !methods || methods.includes('client_secret_basic')
      ? oidc.ClientSecretBasic(secret)
      : oidc.ClientSecretPost(secret);
  const config = new oidc.Configuration(
    cached.server,
    provider.clientId,
    {
      [oidc.clockSkew]: Math.round((now.getTime() - Date.now()) / 1000),
      [oidc.clockTolerance]: CLOCK_TOLERANCE_SECONDS,
    },
    auth,
  );
  if (insecure) oidc.allowInsecureRequests(config);
  // The ID token's signature is checked against the provider's JWKS too, not only trusted for coming over TLS.
  oidc.enableNonRepudiationChecks(config);
  return config;
}

function errorCode(error: unknown): string {
  const e = error as { code?: unknown; error?: unknown; name?: unknown } | null;
  if (typeof e?.error === 'string') return e.error.slice(0, 100);
  if (typeof e?.code === 'string') return e.code.slice(0, 100);
  return typeof e?.name === 'string' ? e.name : 'Error';
}

/** Step one: where to send the browser, and what the session keeps for the callback (10 minutes, used once). */
export async function startOidcLogin(
  provider: ProviderRow,
  options: { appKey: Buffer; appUrl: string; now: Date; redirect: string },
): Promise<{ url: URL; ssoLogin: SsoLogin }> {
  const config = await configurationFor(provider, options.appKey, options.now);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${options.appUrl}${oidcCallbackPath(provider.slug)}`,
    response_type: 'code',
    scope: provider.scopes || 'openid email profile',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return {
    url,
    ssoLogin: {
      providerId: provider.id,
      state,
      nonce,
      codeVerifier,
      redirect: options.redirect,
      expiresAt: new Date(options.now.getTime() + SSO_LOGIN_MS).toISOString(),
    },
  };
}

export interface SsoFacts {
  appKey: Buffer;
  appUrl: string;
  now: Date;
  ip: string;
  requestId: string;
}

/**
 * Step two: the provider's answer (the callback's URL) checked by the library, then the account it names. Throws
 * SsoRefusal for every way it can fail; the route audits and redirects.
 */
export async function completeOidcLogin(
  db: Database,
  provider: ProviderRow,
  pending: SsoLogin,
  callbackQuery: string,
  facts: SsoFacts,
): Promise<{ user: UserRow; mfa: boolean; notices: ProjectNotices[] }> {
  const config = await configurationFor(provider, facts.appKey, facts.now);
  const currentUrl = new URL(`${facts.appUrl}${oidcCallbackPath(provider.slug)}${callbackQuery}`);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      pkceCodeVerifier: pending.codeVerifier,
      idTokenExpected: true,
    });
  } catch (error) {
    throw new SsoRefusal('failed', 'sso_protocol', null, errorCode(error));
  }
  const idToken = tokens.claims();
  if (!idToken) throw new SsoRefusal('failed', 'sso_protocol', null, 'no_id_token');

  let claims: Record<string, unknown> = { ...idToken };
  const map = provider.claims;
  if (claims[map.email] === undefined && config.serverMetadata().userinfo_endpoint && tokens.access_token) {
    try {
      // The ID token's own claims win; userinfo only fills what it lacks (its subject is checked by the library).
      claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...claims };
    } catch {
      // Without userinfo, only the ID token's claims: a missing email is refused below.
    }
  }

  const notices: ProjectNotices[] = [];
  const user = await db.transaction(async (tx) => {
    const user = await accountFor(tx, provider, idToken.sub, claims, facts);
    if (user.status === 'disabled') throw new SsoRefusal('disabled', 'sso_user_disabled', user.id);
    if (user.status !== 'active') throw new SsoRefusal('disabled', `sso_user_${user.status}`, user.id);
    // The groups claim (missing: the groups stay as the directory last said), then the provider's group mappings.
    const groups = claimedGroups(claims[map.groups || 'groups']);
    if (groups)
      await replaceDirectoryGroups(tx, { providerId: provider.id, userId: user.id, names: groups, at: facts.now });
    await applyGroupMappings(tx, {
      providerId: provider.id,
      userId: user.id,
      at: facts.now,
      actor: { userId: user.id, ip: facts.ip, requestId: facts.requestId },
      notices,
    });
    return user;
  });
  return { user, mfa: mfaSatisfied(provider, { amr: idToken.amr, acr: idToken.acr }), notices };
}

/** The provider is trusted for MFA and the ID token's amr (or acr) holds one of its values (default `mfa`). */
export function mfaSatisfied(provider: ProviderRow, idToken: { amr?: unknown; acr?: unknown }): boolean {
  if (!provider.trustMfa) return false;
  const values = provider.mfaValues.length ? provider.mfaValues : DEFAULT_MFA_VALUES;
  const amr = Array.isArray(idToken.amr) ? idToken.amr.filter((v): v is string => typeof v === 'string') : [];
  return amr.some((v) => values.includes(v)) || (typeof idToken.acr === 'string' && values.includes(idToken.acr));
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');

/** The account the provider's subject is: already linked, or linked / created for a verified email it may speak for. */
async function accountFor(
  db: DbOrTx,
  provider: ProviderRow,
  subject: string,
  claims: Record<string, unknown>,
  facts: SsoFacts,
): Promise<UserRow> {
  const [linked] = await db
    .select({ userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.providerId, provider.id), eq(userIdentities.subject, subject)));
  if (linked) {
    const user = await findUserById(db, linked.userId);
    if (!user) throw new SsoRefusal('not_linked', 'sso_not_linked');
    return user;
  }

  const map = provider.claims;
  const email = text(claims[map.email], 254).toLowerCase();
  // Verified when the provider says so, or, for a provider trusted for its emails, unless it says it is not.
  const verified = claims.email_verified === true || (provider.trustEmail && claims.email_verified !== false);
  if (!email || !verified) throw new SsoRefusal('no_email', 'sso_email_unverified');
  const domain = emailDomain(email);
  if (!domain || !provider.domains.includes(domain)) throw new SsoRefusal('not_linked', 'sso_domain_not_claimed');

  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`).for('update');
    if (existing?.status === 'disabled') throw new SsoRefusal('disabled', 'sso_user_disabled', existing.id);
    let user: UserRow;
    if (existing) {
      user = existing;
      if (existing.status === 'invited') {
        // The provider has verified the address the invitation went to: no password to set.
        [user] = (await tx
          .update(users)
          .set({ status: 'active', updatedAt: facts.now })
          .where(eq(users.id, existing.id))
          .returning()) as [UserRow];
      }
      await link(tx, user.id);
      await audit(tx, 'auth.sso_linked', user.id);
    } else {
      const [created] = await tx
        .insert(users)
        .values({
          email,
          username: await uniqueUsername(tx, text(claims[map.username], 50) || email.slice(0, email.indexOf('@'))),
          firstName: text(claims[map.first_name], 100),
          lastName: text(claims[map.last_name], 100),
          role: 'user',
          status: 'active',
          passwordHash: null,
          createdAt: facts.now,
          updatedAt: facts.now,
        })
        .returning();
      user = created!;
      await link(tx, user.id);
      await audit(tx, 'auth.sso_user_created', user.id);
    }
    return user;
  });

  async function link(tx: DbOrTx, userId: number) {
    await tx.insert(userIdentities).values({ providerId: provider.id, subject, userId, email, createdAt: facts.now });
  }
  async function audit(tx: DbOrTx, action: 'auth.sso_linked' | 'auth.sso_user_created', userId: number) {
    await recordAudit(tx, {
      action,
      actorUserId: userId,
      subjectType: 'user',
      subjectId: userId,
      data: { provider: provider.slug, email },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
  }
}

/** A finished single sign-on: the account's and the link's last sign-in, and `auth.login` with the provider. */
export async function recordSsoLogin(
  db: Database,
  input: { userId: number; provider: ProviderRow; mfa: boolean },
  facts: Omit<SsoFacts, 'appKey' | 'appUrl'>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ lastLoginAt: facts.now }).where(eq(users.id, input.userId));
    await tx
      .update(userIdentities)
      .set({ lastLoginAt: facts.now })
      .where(and(eq(userIdentities.providerId, input.provider.id), eq(userIdentities.userId, input.userId)));
    await recordAudit(tx, {
      action: 'auth.login',
      actorUserId: input.userId,
      subjectType: 'user',
      subjectId: input.userId,
      data: { provider: input.provider.slug, two_factor: input.mfa },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
  });
}

/** A refused single sign-on, audited as a failed sign-in with its `sso_*` reason. */
export async function recordSsoFailure(
  db: Database,
  input: { refusal: SsoRefusal; provider: string },
  facts: Omit<SsoFacts, 'appKey' | 'appUrl'>,
): Promise<void> {
  const { refusal } = input;
  await recordAudit(db, {
    action: 'auth.login_failed',
    actorUserId: refusal.userId,
    ...(refusal.userId ? { subjectType: 'user', subjectId: refusal.userId } : {}),
    data: {
      reason: refusal.reason,
      provider: input.provider.slice(0, 100),
      ...(refusal.detail ? { error: refusal.detail } : {}),
    },
    ip: facts.ip,
    requestId: facts.requestId,
    at: facts.now,
  });
}
