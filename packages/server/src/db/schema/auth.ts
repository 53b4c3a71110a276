import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  inet,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { ref } from './columns.js';
import { termsVersions } from './terms.js';
import { users } from './users.js';

/**
 * Sign-in attempts: throttling (per account and address) and lockout (per account) are read from here, so they
 * hold across every server instance. `account_key` is `user:<id>` for a known account and `name:<typed login>` for
 * an unknown one, so unknown names are throttled and locked exactly like real ones.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountKey: text('account_key').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    ip: inet('ip'),
    succeeded: boolean('succeeded').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('login_attempts_account_idx').on(t.accountKey, t.createdAt),
    index('login_attempts_created_idx').on(t.createdAt),
  ],
);

/** Who accepted which terms version, when and from where. */
export const termsAcceptances = pgTable(
  'terms_acceptances',
  {
    userId: ref('user_id', () => users.id, 'cascade'),
    termsVersionId: ref('terms_version_id', () => termsVersions.id, 'restrict'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
    ip: inet('ip'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.termsVersionId] })],
);

/** Password reset tokens: only the SHA-256 is stored; one use; a newer request voids older ones. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: ref('user_id', () => users.id, 'cascade'),
    tokenHash: text('token_hash').notNull().unique(),
    /** reset: a forgotten password (60 minutes); invitation: a new account's first password (7 days). */
    purpose: text('purpose').notNull().default('reset'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('password_reset_tokens_user_idx').on(t.userId),
    check('password_reset_tokens_purpose_check', sql`${t.purpose} in ('reset', 'invitation')`),
  ],
);

/** Captcha solutions already used: a solution is accepted once, on any instance. */
export const captchaSolutions = pgTable(
  'captcha_solutions',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('captcha_solutions_expires_idx').on(t.expiresAt)],
);

/** Fixed-window counters for rate limits that must hold across instances (check-terms, password forgot). */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limit_hits_window_idx').on(t.windowStart)],
);
