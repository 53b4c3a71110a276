import { oidcCallbackPath } from '@portal/shared';
import * as oidc from 'openid-client';
import type { Database } from '../../db/client.js';
import { decrypt } from '../../lib/crypto.js';
import type { UserRow } from '../auth/users.repository.js';
import { claimedGroups } from './group-mappings.service.js';
import type { ProviderRow } from './providers.service.js';
import { isLoopbackHttp } from './saml-settings.js';
import {
  errorCode,
  mfaSatisfied,
  SSO_LOGIN_MS,
  type SsoFacts,
  type SsoLogin,
  SsoRefusal,
  signInAccount,
} from './sso.service.js';

/**
 * OpenID Connect sign-in (decision record 023) through openid-client: discovery, the authorization code flow with
 * PKCE (S256), state and nonce; the library checks the ID token (signature against the provider's JWKS, issuer,
 * audience, expiry, nonce) with a 60-second clock tolerance, on the portal's clock. Nothing here checks a token by
 * hand. What the callback then decides: which account the provider's subject is, linked or created only for a
 * verified email on a claimed domain.
 */

const CLOCK_TOLERANCE_SECONDS = 60;
/** The amr / acr values that mean multi-factor when the provider lists none of its own. */
const DEFAULT_MFA_VALUES = ['mfa'];

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
): Promise<{ user: UserRow; mfa: boolean }> {
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

  // Verified when the provider says so, or, for a provider trusted for its emails, unless it says it is not.
  const emailVerified = claims.email_verified === true || (provider.trustEmail && claims.email_verified !== false);
  const user = await signInAccount(db, provider, {
    subject: idToken.sub,
    claims,
    emailVerified,
    groups: claimedGroups(claims[map.groups || 'groups']) ?? null,
    facts,
  });
  const amr = Array.isArray(idToken.amr) ? idToken.amr.filter((v): v is string => typeof v === 'string') : [];
  const acr = typeof idToken.acr === 'string' ? [idToken.acr] : [];
  return { user, mfa: mfaSatisfied(provider, [...amr, ...acr], DEFAULT_MFA_VALUES) };
}
