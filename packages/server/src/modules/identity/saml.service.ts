import { type CacheProvider, type Profile, SAML } from '@node-saml/node-saml';
import { DEFAULT_SAML_MFA_VALUES } from '@portal/shared';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { type SessionSso, samlMessageIds, sessions } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import type { UserRow } from '../auth/users.repository.js';
import { signalSessionsEnded } from '../notifications/notifications.service.js';
import { claimedGroups } from './group-mappings.service.js';
import { findProviderById, type ProviderRow } from './providers.service.js';
import { serviceProvider } from './saml-settings.js';
import { errorCode, mfaSatisfied, SSO_LOGIN_MS, type SsoFacts, SsoRefusal, signInAccount } from './sso.service.js';

/**
 * SAML 2.0 sign-in (decision record 023) through @node-saml/node-saml: the library checks the assertion's signature
 * against the provider's certificates (assertions must be signed; the response may be too), its audience, its
 * NotBefore / NotOnOrAfter (60 seconds of skew) and InResponseTo against the requests this portal sent. Here, on the
 * signed assertion the library returns: the issuer, the recipient, a replay (an assertion id accepted once), the
 * request spent. Nothing here checks a signature by hand.
 */

const CLOCK_SKEW_MS = 60_000;

/**
 * The requests this portal sent, kept in PostgreSQL (not the session: the provider's POST comes from another site,
 * and a SameSite=Lax cookie does not come with it). A response may name only a request not yet spent or expired.
 */
function requestCache(
  db: Database,
  providerId: number,
  now: Date,
  redirect: string,
  /** The requests this call spent (the library removes the one a response names), with their redirects. */
  spent: Map<string, string>,
): CacheProvider {
  const row = (key: string) =>
    and(
      eq(samlMessageIds.providerId, providerId),
      eq(samlMessageIds.kind, 'request'),
      eq(samlMessageIds.messageId, key.slice(0, 200)),
    );
  return {
    async saveAsync(key, value) {
      await db.insert(samlMessageIds).values({
        providerId,
        kind: 'request',
        messageId: key,
        redirect,
        expiresAt: new Date(now.getTime() + SSO_LOGIN_MS),
      });
      return { value, createdAt: now.getTime() };
    },
    // The library reads the value as the request's instant (and checks its age on its own clock too).
    async getAsync(key) {
      const [found] = await db
        .select({ expiresAt: samlMessageIds.expiresAt })
        .from(samlMessageIds)
        .where(and(row(key), gt(samlMessageIds.expiresAt, now)));
      return found ? new Date(found.expiresAt.getTime() - SSO_LOGIN_MS).toISOString() : null;
    },
    async removeAsync(key) {
      if (!key) return null;
      const [removed] = await db
        .delete(samlMessageIds)
        .where(row(key))
        .returning({ redirect: samlMessageIds.redirect });
      if (removed) spent.set(key, removed.redirect ?? '/');
      return key;
    },
  };
}

/** The library configured for one provider and one step (its request cache on the portal's clock). */
export function samlClient(
  db: Database,
  provider: ProviderRow,
  options: { appUrl: string; now: Date; redirect?: string; spent?: Map<string, string> },
): SAML {
  if (provider.kind !== 'saml' || !provider.samlSsoUrl || !provider.samlCertificates.length) {
    throw new SsoRefusal('unknown_provider', 'sso_not_configured');
  }
  const sp = serviceProvider(options.appUrl, provider.slug);
  return new SAML({
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: provider.samlSsoUrl,
    idpCert: provider.samlCertificates,
    // Let the provider choose the NameID format it is set up with (persistent is what docs/identity.md asks for).
    identifierFormat: null,
    // Asking for "password" would refuse a provider's multi-factor sign-in; its AuthnContextClassRef is read instead.
    disableRequestedAuthnContext: true,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: 'ifPresent' as SAML['options']['validateInResponseTo'],
    requestIdExpirationPeriodMs: SSO_LOGIN_MS,
    cacheProvider: requestCache(db, provider.id, options.now, options.redirect ?? '/', options.spent ?? new Map()),
    logoutUrl: provider.samlSloUrl ?? provider.samlSsoUrl,
    logoutCallbackUrl: sp.logoutUrl,
  });
}

/** The portal's SP metadata for one provider: its entity ID, its ACS (HTTP-POST) and single logout (HTTP-Redirect). */
export function spMetadata(db: Database, provider: ProviderRow, appUrl: string, now: Date): string {
  return samlClient(db, provider, { appUrl, now }).generateServiceProviderMetadata(null, null);
}

/** SP-initiated sign-in: the AuthnRequest (HTTP-Redirect), its id kept for the response to name. */
export async function startSamlLogin(
  db: Database,
  provider: ProviderRow,
  options: { appUrl: string; now: Date; redirect: string },
): Promise<string> {
  return samlClient(db, provider, options).getAuthorizeUrlAsync('', undefined, {});
}

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const first = (node: unknown, name: string): XmlNode | undefined =>
  (node as Record<string, XmlNode[] | undefined> | undefined)?.[name]?.[0];
const all = (node: unknown, name: string): XmlNode[] =>
  (node as Record<string, XmlNode[] | undefined> | undefined)?.[name] ?? [];

/** The facts of the signed assertion the library returned (xml2js form). */
function assertionFacts(profile: Profile) {
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  if (!assertion) throw new SsoRefusal('failed', 'sso_protocol', null, 'no_assertion');
  const confirmations = all(first(assertion, 'Subject'), 'SubjectConfirmation').map(
    (c) => first(c, 'SubjectConfirmationData')?.$,
  );
  const authn = first(first(assertion, 'AuthnStatement'), 'AuthnContext');
  const classRef = first(authn, 'AuthnContextClassRef');
  return {
    id: assertion.$?.ID ?? '',
    recipients: confirmations.map((data) => data?.Recipient ?? ''),
    notOnOrAfter: first(assertion, 'Conditions')?.$?.NotOnOrAfter,
    authnContext: typeof classRef === 'string' ? classRef : (classRef?._ ?? ''),
  };
}

/** An assertion accepted once: posting it again is a replay. Kept until it expires (and spent ones swept). */
async function spendAssertion(db: Database, providerId: number, id: string, until: Date, now: Date): Promise<void> {
  await db.delete(samlMessageIds).where(lt(samlMessageIds.expiresAt, now));
  const inserted = await db
    .insert(samlMessageIds)
    .values({ providerId, kind: 'assertion', messageId: id, expiresAt: until })
    .onConflictDoNothing()
    .returning({ id: samlMessageIds.messageId });
  if (!inserted.length) throw new SsoRefusal('failed', 'sso_replay', null, 'assertion_replayed');
}

/**
 * The provider's POST to the ACS: checked by the library and here, then the account it names. `redirect` is the
 * started sign-in's (SP-initiated) or the RelayState's (IdP-initiated). Throws SsoRefusal for every way it can fail.
 */
export async function completeSamlLogin(
  db: Database,
  provider: ProviderRow,
  body: { SAMLResponse: string; RelayState?: string },
  facts: SsoFacts,
): Promise<{
  user: UserRow;
  mfa: boolean;
  redirect: string | null;
  session: SamlSession;
}> {
  const spent = new Map<string, string>();
  const client = samlClient(db, provider, { appUrl: facts.appUrl, now: facts.now, spent });
  let profile: Profile | null;
  try {
    ({ profile } = await client.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
  } catch (error) {
    throw new SsoRefusal('failed', 'sso_protocol', null, samlErrorCode(error));
  }
  if (!profile?.nameID) throw new SsoRefusal('failed', 'sso_protocol', null, 'no_name_id');
  const sp = serviceProvider(facts.appUrl, provider.slug);
  const assertion = assertionFacts(profile);
  if (provider.samlEntityId && profile.issuer !== provider.samlEntityId) {
    throw new SsoRefusal('failed', 'sso_protocol', null, 'wrong_issuer');
  }
  if (!assertion.recipients.includes(sp.acsUrl))
    throw new SsoRefusal('failed', 'sso_protocol', null, 'wrong_recipient');
  if (!assertion.id) throw new SsoRefusal('failed', 'sso_protocol', null, 'no_assertion_id');

  // Kept at least as long as the assertion could be accepted, and as long as a started sign-in lives.
  const notOnOrAfter = assertion.notOnOrAfter ? new Date(assertion.notOnOrAfter).getTime() + CLOCK_SKEW_MS : 0;
  const until = new Date(Math.max(notOnOrAfter || 0, facts.now.getTime() + SSO_LOGIN_MS));
  await spendAssertion(db, provider.id, assertion.id, until, facts.now);
  let redirect: string | null = null;
  if (typeof profile.inResponseTo === 'string' && profile.inResponseTo) {
    // Spent by this call (the library removed it once it matched), not by a concurrent one.
    redirect = spent.get(profile.inResponseTo) ?? null;
    if (redirect === null) throw new SsoRefusal('expired', 'sso_login_expired', null, 'request_spent');
  }

  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const map = provider.claims;
  const claims = Object.fromEntries(
    Object.entries(map).map(([key, name]) => {
      const value = attributes[name];
      return [name, key === 'groups' || !Array.isArray(value) ? value : value[0]];
    }),
  );
  const groupValue = attributes[map.groups];
  const user = await signInAccount(db, provider, {
    subject: profile.nameID,
    claims,
    // SAML says nothing of verification: the email counts only for a provider trusted for its addresses.
    emailVerified: provider.trustEmail,
    groups: claimedGroups(typeof groupValue === 'string' ? [groupValue] : groupValue) ?? null,
    facts,
  });
  const mfa = mfaSatisfied(provider, assertion.authnContext ? [assertion.authnContext] : [], DEFAULT_SAML_MFA_VALUES);
  const session: SamlSession = {
    nameId: profile.nameID,
    ...(profile.nameIDFormat ? { nameIdFormat: profile.nameIDFormat } : {}),
    ...(typeof profile.sessionIndex === 'string' ? { sessionIndex: profile.sessionIndex } : {}),
  };
  return { user, mfa, redirect, session };
}

/** What a portal session keeps of the provider's, for single logout. */
export interface SamlSession {
  nameId: string;
  nameIdFormat?: string;
  sessionIndex?: string;
}

/**
 * Single logout (HTTP-Redirect): a LogoutRequest from the provider (it must be signed; the library checks the
 * signature against the provider's certificates) ends the portal sessions it names, by NameID and, when it gives
 * one, SessionIndex; the answer is a LogoutResponse URL. A LogoutResponse answers the portal's own request.
 */
export async function handleLogoutMessage(
  db: Database,
  provider: ProviderRow,
  query: Record<string, string>,
  originalQuery: string,
  facts: SsoFacts,
): Promise<{ kind: 'request'; ended: { userId: number }[]; responseUrl: string } | { kind: 'response' }> {
  const client = samlClient(db, provider, { appUrl: facts.appUrl, now: facts.now });
  if (query.SAMLRequest && !query.Signature) throw new SsoRefusal('failed', 'sso_protocol', null, 'unsigned_logout');
  let result: Awaited<ReturnType<SAML['validateRedirectAsync']>>;
  try {
    result = await client.validateRedirectAsync(query, originalQuery);
  } catch (error) {
    throw new SsoRefusal('failed', 'sso_protocol', null, samlErrorCode(error));
  }
  if (!query.SAMLRequest) return { kind: 'response' };
  const profile = result.profile;
  if (!profile?.nameID || (provider.samlEntityId && profile.issuer !== provider.samlEntityId)) {
    throw new SsoRefusal('failed', 'sso_protocol', null, 'wrong_issuer');
  }
  const sessionIndex = typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null;
  const ended = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(sessions)
      .where(
        and(
          sql`(${sessions.data}->'sso'->>'providerId')::int = ${provider.id}`,
          sql`${sessions.data}->'sso'->>'nameId' = ${profile.nameID}`,
          sessionIndex ? sql`${sessions.data}->'sso'->>'sessionIndex' = ${sessionIndex}` : undefined,
        ),
      )
      .returning({ userId: sessions.userId });
    const users = [...new Set(rows.map((row) => row.userId).filter((id): id is number => id !== null))];
    for (const userId of users) {
      await signalSessionsEnded(tx, userId);
      await recordAudit(tx, {
        action: 'auth.logout',
        actorUserId: userId,
        subjectType: 'user',
        subjectId: userId,
        data: { provider: provider.slug, single_logout: true },
        ip: facts.ip,
        requestId: facts.requestId,
        at: facts.now,
      });
    }
    return users.map((userId) => ({ userId }));
  });
  const responseUrl = await client.getLogoutResponseUrlAsync(profile, query.RelayState ?? '', {}, true);
  return { kind: 'request', ended, responseUrl };
}

/** The library's message, shortened to a code for the audit (never shown to the person). */
function samlErrorCode(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/signature/i.test(message)) return 'invalid_signature';
  if (/audience/i.test(message)) return 'wrong_audience';
  // A subject confirmation is valid only within its NotBefore / NotOnOrAfter: none valid means none in time.
  if (/NotBefore|NotOnOrAfter|expired|not yet valid|subject confirmation/i.test(message)) return 'expired';
  if (/InResponseTo/i.test(message)) return 'unknown_request';
  if (/status|Responder|Requester/i.test(message)) return 'idp_error';
  return errorCode(error);
}

/**
 * Logout started here (the person signs out of the portal): for a session a SAML provider opened, where the provider
 * takes logout requests, the address that carries the portal's LogoutRequest to it; its LogoutResponse then comes
 * back to the single logout route. Null: nothing to tell a provider.
 */
export async function singleLogoutUrl(
  db: Database,
  sso: SessionSso | undefined,
  options: { appUrl: string; now: Date },
): Promise<string | null> {
  if (!sso?.nameId) return null;
  const provider = await findProviderById(db, sso.providerId);
  if (!provider?.enabled || provider.kind !== 'saml' || !provider.samlSloUrl) return null;
  const client = samlClient(db, provider, options);
  const subject = {
    issuer: provider.samlEntityId ?? '',
    nameID: sso.nameId,
    nameIDFormat: sso.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    ...(sso.sessionIndex ? { sessionIndex: sso.sessionIndex } : {}),
  } as Profile;
  return client.getLogoutUrlAsync(subject, '', {});
}
