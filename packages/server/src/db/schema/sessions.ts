import { index, inet, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

export interface SessionData {
  /** Password verified, two-factor code pending (5 minutes). */
  pendingLogin?: { userId: number; expiresAt: string };
  /** Last password re-confirmation, for sensitive actions (15 minutes). */
  passwordConfirmedAt?: string;
  /** Credentials re-entered once for a batch of signatures (bulk sign): good for those documents only, briefly. */
  signingBatch?: {
    tokenHash: string;
    projectId: number;
    documentIds: number[];
    method: 'password' | 'totp';
    expiresAt: string;
  };
}

/** Cookie sessions. The cookie holds a random id; only its SHA-256 is stored, so a database leak yields no session. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    /** What the user sees and names when ending a session: never the cookie value or its hash. */
    publicId: uuid('public_id').notNull().unique().defaultRandom(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the XSRF-TOKEN bound to this session. */
    csrfTokenHash: text('csrf_token_hash').notNull(),
    /** Pending steps such as a two-factor challenge between password and code. */
    data: jsonb('data').$type<SessionData>().notNull().default({}),
    ip: inet('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Absolute timeout: the session ends then whatever the activity. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);
