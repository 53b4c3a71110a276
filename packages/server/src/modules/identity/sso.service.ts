import { localPath, type SsoErrorKey } from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { type SessionData, userIdentities, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import type { Mailer } from '../../lib/mailer.js';
import { findUserById, type UserRow } from '../auth/users.repository.js';
import { type ProjectNotices, queueNotices } from '../notifications/notices.js';
import { applyGroupMappings, replaceDirectoryGroups } from './group-mappings.service.js';
import { uniqueUsername } from './identity-users.service.js';
import { emailDomain, type ProviderRow } from './providers.service.js';

/**
 * What every single sign-on shares, whatever its protocol (decision record 023): once OpenID Connect or SAML has
 * checked the provider's answer, which account its subject is (linked, or linked / created only for a verified
 * email on a claimed domain), the directory groups and their mappings, multi-factor trust, and the audit.
 */

/** How long a started sign-in may take at the provider, and the terms step after it. */
export const SSO_LOGIN_MS = 10 * 60_000;

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

/**
 * A same-origin path to return to, normalised before it is judged (the web's login page uses the same rule), so
 * `/..//evil.example/` cannot become `//evil.example/` in the browser; anything else is '/'.
 */
export function safeRedirect(value: unknown): string {
  return localPath(value) ?? '/';
}

export function errorCode(error: unknown): string {
  const e = error as { code?: unknown; error?: unknown; name?: unknown } | null;
  if (typeof e?.error === 'string') return e.error.slice(0, 100);
  if (typeof e?.code === 'string') return e.code.slice(0, 100);
  return typeof e?.name === 'string' ? e.name : 'Error';
}

export interface SsoFacts {
  appKey: Buffer;
  /** Notices a sign-in's group mappings cause are queued in its transaction. */
  mailer: Mailer;
  appUrl: string;
  now: Date;
  ip: string;
  requestId: string;
}

/** What a protocol established about the person, checked by its library. */
export interface SsoAssertion {
  /** The provider's stable id for the person (OIDC `sub`, SAML NameID). */
  subject: string;
  /** The claims (OIDC) or attributes (SAML), read through the provider's claim map. */
  claims: Record<string, unknown>;
  /** Whether the email may link or create an account (see each protocol's rule). */
  emailVerified: boolean;
  /** The directory groups it sent; null: none sent, the groups stay as the directory last said. */
  groups: string[] | null;
  facts: SsoFacts;
}

/**
 * The account signing in, its directory groups replaced and the provider's group mappings applied (with the notices
 * they cause), in one transaction.
 */
export async function signInAccount(db: Database, provider: ProviderRow, input: SsoAssertion): Promise<UserRow> {
  const { facts } = input;
  const notices: ProjectNotices[] = [];
  return db.transaction(async (tx) => {
    const user = await accountFor(tx, provider, input.subject, input.claims, input.emailVerified, facts);
    if (user.status === 'disabled') throw new SsoRefusal('disabled', 'sso_user_disabled', user.id);
    if (user.status !== 'active') throw new SsoRefusal('disabled', `sso_user_${user.status}`, user.id);
    if (input.groups)
      await replaceDirectoryGroups(tx, {
        providerId: provider.id,
        userId: user.id,
        names: input.groups,
        at: facts.now,
      });
    await applyGroupMappings(tx, {
      providerId: provider.id,
      userId: user.id,
      at: facts.now,
      actor: { userId: user.id, ip: facts.ip, requestId: facts.requestId },
      notices,
    });
    // Open policy rounds that followed a role the groups changed: told in the sign-in's own transaction.
    for (const project of notices) await queueNotices(tx, facts.mailer, project.projectId, project.notices, facts.now);
    return user;
  });
}

/** The provider is trusted for MFA and its sign-in says one of its values (or, listing none, one of the defaults). */
export function mfaSatisfied(provider: ProviderRow, said: readonly string[], defaults: readonly string[]): boolean {
  if (!provider.trustMfa) return false;
  const values = provider.mfaValues.length ? provider.mfaValues : defaults;
  return said.some((value) => values.includes(value));
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');

/** The account the provider's subject is: already linked, or linked / created for a verified email it may speak for. */
async function accountFor(
  db: DbOrTx,
  provider: ProviderRow,
  subject: string,
  claims: Record<string, unknown>,
  emailVerified: boolean,
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
  if (!email || !emailVerified) throw new SsoRefusal('no_email', 'sso_email_unverified');
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
