import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
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
    claims: jsonb('claims').$type<ClaimMapColumn>().notNull(),
    issuer: text('issuer'),
    clientId: text('client_id'),
    /** AES-256-GCM with APP_KEY (`v1.<iv>.<tag>.<data>`). */
    clientSecretSealed: text('client_secret_sealed'),
    scopes: text('scopes'),
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
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject_unique').on(t.providerId, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);
