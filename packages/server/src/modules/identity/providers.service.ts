import {
  type IdentityProvider,
  type identityProviderInputSchema,
  loginPathFor,
  oidcCallbackPath,
  type PublicIdentityProvider,
  scimBaseUrl,
} from '@portal/shared';
import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { identityProviders, userIdentities } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { encrypt } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import {
  describeCertificate,
  fetchIdpMetadata,
  type IdpMetadata,
  parseIdpMetadata,
  serviceProvider,
  toPem,
} from './saml-settings.js';

/**
 * Identity providers (decision record 023): the superadmin's CRUD, what the sign-in page may know, and the
 * local-passwords-off rule the password sign-in asks about. The client secret is sealed with APP_KEY and never read
 * back here: responses say `has_secret`.
 */

export type ProviderRow = typeof identityProviders.$inferSelect;
export type ProviderInput = z.output<typeof identityProviderInputSchema>;

export interface ChangeFacts {
  actorUserId: number;
  appKey: Buffer;
  appUrl: string;
  now: Date;
  ip: string;
  requestId: string;
}

/** The values an audit event compares: the settings as the console shows them, the secret as `client_secret`. */
function auditView(row: ProviderRow) {
  return {
    slug: row.slug,
    name: row.name,
    kind: row.kind,
    enabled: row.enabled,
    domains: row.domains,
    trust_mfa: row.trustMfa,
    mfa_values: row.mfaValues,
    local_passwords_off: row.localPasswordsOff,
    trust_email: row.trustEmail,
    claims: row.claims,
    issuer: row.issuer,
    client_id: row.clientId,
    scopes: row.scopes,
    saml_metadata_url: row.samlMetadataUrl,
    saml_entity_id: row.samlEntityId,
    saml_sso_url: row.samlSsoUrl,
    saml_slo_url: row.samlSloUrl,
    saml_certificates: row.samlCertificates.map((pem) => describeCertificate(pem)?.fingerprint ?? 'unreadable'),
    // Compared by its sealed value (a new secret reseals, so it differs), recorded only as changed (audit-diff).
    client_secret: row.clientSecretSealed,
  };
}

export function presentProvider(row: ProviderRow, linkedUsers: number, appUrl: string): IdentityProvider {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    kind: row.kind as IdentityProvider['kind'],
    enabled: row.enabled,
    domains: row.domains,
    trust_mfa: row.trustMfa,
    mfa_values: row.mfaValues,
    local_passwords_off: row.localPasswordsOff,
    trust_email: row.trustEmail,
    claims: row.claims,
    oidc:
      row.kind === 'oidc'
        ? {
            issuer: row.issuer ?? '',
            client_id: row.clientId ?? '',
            scopes: row.scopes ?? '',
            has_secret: row.clientSecretSealed !== null,
          }
        : null,
    saml: row.kind === 'saml' ? presentSaml(row, appUrl) : null,
    callback_url:
      row.kind === 'saml' ? serviceProvider(appUrl, row.slug).acsUrl : `${appUrl}${oidcCallbackPath(row.slug)}`,
    linked_users: linkedUsers,
    scim: {
      enabled: row.scimTokenHash !== null,
      created_at: row.scimTokenCreatedAt?.toISOString() ?? null,
      base_url: scimBaseUrl(appUrl),
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function presentSaml(row: ProviderRow, appUrl: string): NonNullable<IdentityProvider['saml']> {
  const sp = serviceProvider(appUrl, row.slug);
  return {
    metadata_url: row.samlMetadataUrl ?? '',
    entity_id: row.samlEntityId ?? '',
    sso_url: row.samlSsoUrl ?? '',
    slo_url: row.samlSloUrl ?? '',
    certificates: row.samlCertificates.flatMap((pem) => describeCertificate(pem) ?? []),
    sp_entity_id: sp.entityId,
    sp_metadata_url: sp.entityId,
  };
}

async function linkedCounts(db: DbOrTx): Promise<Map<number, number>> {
  const rows = await db
    .select({ providerId: userIdentities.providerId, n: count() })
    .from(userIdentities)
    .groupBy(userIdentities.providerId);
  return new Map(rows.map((r) => [r.providerId, r.n]));
}

export async function listProviders(db: Database, appUrl: string): Promise<IdentityProvider[]> {
  const rows = await db.select().from(identityProviders).orderBy(identityProviders.name, identityProviders.id);
  const linked = await linkedCounts(db);
  return rows.map((row) => presentProvider(row, linked.get(row.id) ?? 0, appUrl));
}

export async function findProviderById(db: DbOrTx, id: number): Promise<ProviderRow | undefined> {
  const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, id));
  return row;
}

export async function findProviderBySlug(db: DbOrTx, slug: string): Promise<ProviderRow | undefined> {
  const [row] = await db.select().from(identityProviders).where(eq(identityProviders.slug, slug));
  return row;
}

/** The enabled providers, as the sign-in page shows them. */
export async function publicProviders(db: Database): Promise<PublicIdentityProvider[]> {
  const rows = await db
    .select()
    .from(identityProviders)
    .where(eq(identityProviders.enabled, true))
    .orderBy(identityProviders.name, identityProviders.id);
  return rows.map((row) => ({
    slug: row.slug,
    name: row.name,
    kind: row.kind as PublicIdentityProvider['kind'],
    domains: row.domains,
    login_url: loginPathFor(row.kind as PublicIdentityProvider['kind'], row.slug),
    local_passwords_off: row.localPasswordsOff,
  }));
}

/**
 * The password sign-in's question (asked after the password is verified): is this account's email domain claimed
 * by an enabled provider that turns local passwords off? Superadmins are never refused (break-glass).
 */
export async function localPasswordsRefused(db: DbOrTx, user: { email: string; role: string }): Promise<boolean> {
  if (user.role === 'superadmin') return false;
  const domain = emailDomain(user.email);
  if (!domain) return false;
  const [row] = await db
    .select({ id: identityProviders.id })
    .from(identityProviders)
    .where(
      and(
        eq(identityProviders.enabled, true),
        eq(identityProviders.localPasswordsOff, true),
        sql`${domain} = any(${identityProviders.domains})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase();
}

/** 409 for a short name in use, 422 naming a domain another provider claims. */
async function assertFree(tx: DbOrTx, input: ProviderInput, exceptId: number | null): Promise<void> {
  const others = exceptId === null ? undefined : ne(identityProviders.id, exceptId);
  const [slugTaken] = await tx
    .select({ id: identityProviders.id })
    .from(identityProviders)
    .where(and(eq(identityProviders.slug, input.slug), others));
  if (slugTaken) {
    throw new AppError('CONFLICT', 'This short name is already taken.', {
      slug: [`Another provider already uses the short name “${input.slug}”.`],
    });
  }
  if (!input.domains.length) return;
  const claimed = await tx
    .select({ name: identityProviders.name, domains: identityProviders.domains })
    .from(identityProviders)
    .where(and(sql`${identityProviders.domains} && ${sql.param(input.domains)}::text[]`, others));
  const messages: string[] = [];
  for (const other of claimed) {
    for (const domain of input.domains.filter((d) => other.domains.includes(d))) {
      messages.push(`${domain} is already claimed by “${other.name}”.`);
    }
  }
  if (messages.length) throw new AppError('UNPROCESSABLE', messages[0]!, { domains: messages });
}

type SamlColumns = Pick<
  ProviderRow,
  'samlMetadataUrl' | 'samlEntityId' | 'samlSsoUrl' | 'samlSloUrl' | 'samlCertificates'
>;

/**
 * A SAML provider's settings as stored: read from the uploaded metadata, else from the metadata address, else as
 * typed. A certificate left empty on an update keeps the stored ones. 422 naming the field for what is missing.
 */
async function samlColumns(input: ProviderInput, before: ProviderRow | null): Promise<SamlColumns> {
  const saml = input.saml!;
  let metadata: IdpMetadata | null = null;
  if (saml.metadata_xml.trim()) metadata = parseIdpMetadata(saml.metadata_xml);
  else if (saml.metadata_url) metadata = await fetchIdpMetadata(saml.metadata_url);
  const certificates = metadata
    ? metadata.certificates.map(toPem)
    : saml.certificate
      ? [toPem(saml.certificate)]
      : (before?.samlCertificates ?? []);
  const missing = (field: string, message: string) =>
    new AppError('UNPROCESSABLE', message, { [`saml.${field}`]: [message] });
  const entityId = metadata?.entityId ?? saml.entity_id;
  const ssoUrl = metadata?.ssoUrl ?? saml.sso_url;
  if (!entityId) throw missing('entity_id', 'Enter the identity provider’s entity ID, or its metadata.');
  if (!ssoUrl) throw missing('sso_url', 'Enter the single sign-on address, or the metadata.');
  if (!certificates.length) throw missing('certificate', 'Enter the signing certificate, or the metadata.');
  if (certificates.some((pem) => !describeCertificate(pem))) {
    throw missing('certificate', 'This is not a certificate: paste the PEM text or its base64 body.');
  }
  return {
    samlMetadataUrl: saml.metadata_url || null,
    samlEntityId: entityId,
    samlSsoUrl: ssoUrl,
    samlSloUrl: metadata ? metadata.sloUrl : saml.slo_url || null,
    samlCertificates: certificates,
  };
}

const NO_OIDC = { issuer: null, clientId: null, scopes: null, clientSecretSealed: null };
const NO_SAML: SamlColumns = {
  samlMetadataUrl: null,
  samlEntityId: null,
  samlSsoUrl: null,
  samlSloUrl: null,
  samlCertificates: [],
};

/** The columns of one save: the kind's settings, the other kind's cleared. */
async function columnsOf(input: ProviderInput, before: ProviderRow | null, appKey: Buffer) {
  const common = {
    slug: input.slug,
    name: input.name,
    kind: input.kind,
    enabled: input.enabled,
    domains: input.domains,
    trustMfa: input.trust_mfa,
    mfaValues: [...new Set(input.mfa_values)],
    localPasswordsOff: input.local_passwords_off,
    trustEmail: input.trust_email,
    claims: input.claims,
  };
  if (input.kind === 'saml') return { ...common, ...NO_OIDC, ...(await samlColumns(input, before)) };
  const oidc = input.oidc!;
  const secret = oidc.client_secret?.length ? encrypt(oidc.client_secret, appKey) : null;
  return {
    ...common,
    ...NO_SAML,
    issuer: oidc.issuer,
    clientId: oidc.client_id,
    scopes: oidc.scopes.split(/\s+/).filter(Boolean).join(' '),
    // Omitted on an update: the stored secret stays (while the provider stays OpenID Connect).
    clientSecretSealed: secret ?? (before?.kind === 'oidc' ? before.clientSecretSealed : null),
  };
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';
const slugConflict = (slug: string) =>
  new AppError('CONFLICT', 'This short name is already taken.', {
    slug: [`Another provider already uses the short name “${slug}”.`],
  });

export async function createProvider(
  db: Database,
  input: ProviderInput,
  facts: ChangeFacts,
): Promise<IdentityProvider> {
  const parsed = input;
  const columns = await columnsOf(parsed, null, facts.appKey);
  try {
    return await db.transaction(async (tx) => {
      await assertFree(tx, parsed, null);
      const [row] = await tx
        .insert(identityProviders)
        .values({
          ...columns,
          createdAt: facts.now,
          updatedAt: facts.now,
        })
        .returning();
      await recordAudit(tx, {
        action: 'identity_provider.create',
        actorUserId: facts.actorUserId,
        subjectType: 'identity_provider',
        subjectId: row!.id,
        data: { changes: changes(null, auditView(row!)) },
        ip: facts.ip,
        requestId: facts.requestId,
        at: facts.now,
      });
      return presentProvider(row!, 0, facts.appUrl);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugConflict(parsed.slug);
    throw error;
  }
}

export async function updateProvider(
  db: Database,
  id: number,
  input: ProviderInput,
  facts: ChangeFacts,
): Promise<IdentityProvider> {
  const parsed = input;
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select().from(identityProviders).where(eq(identityProviders.id, id)).for('update');
      if (!before) throw notFound('Identity provider not found.');
      await assertFree(tx, parsed, id);
      const [after] = await tx
        .update(identityProviders)
        .set({
          ...(await columnsOf(parsed, before, facts.appKey)),
          updatedAt: facts.now,
        })
        .where(eq(identityProviders.id, id))
        .returning();
      const changed = changes(auditView(before), auditView(after!));
      if (Object.keys(changed).length) {
        await recordAudit(tx, {
          action: 'identity_provider.update',
          actorUserId: facts.actorUserId,
          subjectType: 'identity_provider',
          subjectId: id,
          data: { changes: changed },
          ip: facts.ip,
          requestId: facts.requestId,
          at: facts.now,
        });
      }
      const linked = await linkedCounts(tx);
      return presentProvider(after!, linked.get(id) ?? 0, facts.appUrl);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugConflict(parsed.slug);
    throw error;
  }
}

/** Removes a provider and its links (the accounts stay; they sign in with a password or another provider). */
export async function deleteProvider(db: Database, id: number, facts: ChangeFacts): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(identityProviders).where(eq(identityProviders.id, id)).for('update');
    if (!row) throw notFound('Identity provider not found.');
    const linked = (await linkedCounts(tx)).get(id) ?? 0;
    await tx.delete(identityProviders).where(eq(identityProviders.id, id));
    await recordAudit(tx, {
      action: 'identity_provider.delete',
      actorUserId: facts.actorUserId,
      subjectType: 'identity_provider',
      subjectId: id,
      data: { name: row.name, slug: row.slug, linked_users: linked },
      ip: facts.ip,
      requestId: facts.requestId,
      at: facts.now,
    });
  });
}
