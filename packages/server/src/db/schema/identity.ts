import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { projects } from './projects.js';
import { users } from './users.js';

/** The claim names read from a provider's ID token (shared ClaimMap). */
export interface ClaimMapColumn {
  email: string;
  first_name: string;
  last_name: string;
  username: string;
  groups: string;
}

/**
 * Single sign-on providers a superadmin configures (decision record 023). The client secret is sealed with APP_KEY
 * (lib/crypto.ts) and never returned.
 */
export const identityProviders = pgTable(
  'identity_providers',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Email domains the provider speaks for: linking, account creation and local_passwords_off apply to them. */
    domains: text('domains').array().notNull().default(sql`'{}'::text[]`),
    trustMfa: boolean('trust_mfa').notNull().default(false),
    /** The amr / acr values that mean multi-factor; empty means `mfa`. */
    mfaValues: text('mfa_values').array().notNull().default(sql`'{}'::text[]`),
    localPasswordsOff: boolean('local_passwords_off').notNull().default(false),
    /** Its email claim counts as verified unless it says otherwise (Entra ID and AD FS send no email_verified). */
    trustEmail: boolean('trust_email').notNull().default(false),
    claims: jsonb('claims').$type<ClaimMapColumn>().notNull(),
    issuer: text('issuer'),
    clientId: text('client_id'),
    /** AES-256-GCM with APP_KEY (`v1.<iv>.<tag>.<data>`). */
    clientSecretSealed: text('client_secret_sealed'),
    scopes: text('scopes'),
    /** SAML: where the metadata was fetched from (kept to fetch again), the IdP's entity ID and endpoints. */
    samlMetadataUrl: text('saml_metadata_url'),
    samlEntityId: text('saml_entity_id'),
    samlSsoUrl: text('saml_sso_url'),
    samlSloUrl: text('saml_slo_url'),
    /** The IdP's signing certificates (PEM): an assertion signed with none of them is refused. */
    samlCertificates: text('saml_certificates').array().notNull().default(sql`'{}'::text[]`),
    /** SHA-256 of the provider's SCIM bearer token (shown once when made); null: no provisioning. */
    scimTokenHash: text('scim_token_hash'),
    scimTokenCreatedAt: timestamp('scim_token_created_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('identity_providers_kind_check', sql`${t.kind} in ('oidc', 'saml')`)],
);

/** A person known to a provider by its subject (`sub`): the only key a sign-in is matched by once linked. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The email the provider sent when the link was made. */
    email: text('email'),
    /** SCIM: the directory's own id for the person (externalId) and the userName it provisioned them with. */
    externalId: text('external_id'),
    userName: text('user_name'),
    /** SCIM `active`: false once the directory deprovisions the person (their account is disabled with it). */
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject_unique').on(t.providerId, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * A group of a provider's directory: pushed by SCIM (its `id` is this row's id, `externalId` the directory's), or
 * named in the groups claim of a sign-in (display name and external id are then the claim's value).
 */
export const directoryGroups = pgTable(
  'directory_groups',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    displayName: text('display_name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('directory_groups_provider_name_idx').on(t.providerId, t.displayName),
    uniqueIndex('directory_groups_provider_external_unique')
      .on(t.providerId, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

/** Who is in a directory group, as the provider last said (SCIM membership changes, or the groups claim). */
export const directoryGroupMembers = pgTable(
  'directory_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => directoryGroups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('directory_group_members_user_idx').on(t.userId)],
);

/**
 * A directory group mapped to a project: its members are members of the project with this project role, these main
 * roles per app (null: none) and the reader duty of these policy departments. `group` matches a group's display
 * name or external id (Entra ID sends object ids in the groups claim, Okta and Keycloak names).
 */
export const identityGroupMappings = pgTable(
  'identity_group_mappings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    group: text('group').notNull(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    projectRole: text('project_role').notNull().default('simple'),
    mainRoles: jsonb('main_roles').$type<Record<string, string | null>>().notNull().default({}),
    readerDepartmentIds: integer('reader_department_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('identity_group_mappings_unique').on(t.providerId, t.group, t.projectId),
    check('identity_group_mappings_role_check', sql`${t.projectRole} in ('admin', 'simple')`),
  ],
);

/**
 * What a mapping granted (a project membership, with its main roles and reader duties), so that leaving the group
 * takes away exactly that and never what an administrator granted by hand.
 */
export const mappedMemberships = pgTable(
  'mapped_memberships',
  {
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The main roles and reader departments the mapping set, as last applied. */
    mainRoles: jsonb('main_roles').$type<Record<string, string | null>>().notNull().default({}),
    readerDepartmentIds: integer('reader_department_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.projectId, t.userId] })],
);

/**
 * SAML message IDs used once: the AuthnRequests the portal sent (a response's InResponseTo must name one, then it is
 * spent) and the assertions it accepted (the same assertion posted again is a replay). Kept until they expire.
 */
export const samlMessageIds = pgTable(
  'saml_message_ids',
  {
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    messageId: text('message_id').notNull(),
    /** For a request: where the person goes once signed in. */
    redirect: text('redirect'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.providerId, t.kind, t.messageId] }),
    index('saml_message_ids_expires_idx').on(t.expiresAt),
    check('saml_message_ids_kind_check', sql`${t.kind} in ('request', 'assertion')`),
  ],
);
