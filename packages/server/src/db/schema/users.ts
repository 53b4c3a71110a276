import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** argon2id hash; null until an invited user sets a password. */
    passwordHash: text('password_hash'),
    /** Global role: superadmin, or user (what a user may do in a project comes from project_memberships). */
    role: text('role').notNull().default('user'),
    status: text('status').notNull().default('active'),
    /** TOTP secret, AES-256-GCM encrypted with APP_KEY. */
    twoFactorSecret: text('two_factor_secret'),
    twoFactorConfirmedAt: timestamp('two_factor_confirmed_at', { withTimezone: true }),
    /** argon2id hashes of the single-use recovery codes. */
    twoFactorRecoveryCodes: jsonb('two_factor_recovery_codes').$type<string[]>(),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    twoFactorLastStep: bigint('two_factor_last_step', { mode: 'number' }),
    /** Demo accounts (known password, listed in the README): the server warns at start-up while any exist. */
    isDemo: boolean('is_demo').notNull().default(false),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    check('users_role_check', sql`${t.role} in ('superadmin', 'user')`),
    check('users_status_check', sql`${t.status} in ('active', 'invited', 'disabled')`),
  ],
);
