import { index, inet, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** A session opened by single sign-on: the provider, and whether its sign-in satisfied the two-factor rule. */
export interface SessionSso {
  providerId: number;
  providerName: string;
  mfa: boolean;
  /** SAML: who the provider said signed in and its session, for single logout (a LogoutRequest names them). */
  nameId?: string;
  nameIdFormat?: string;
  sessionIndex?: string;
}

export interface SessionData {
  /**
   * Password verified (or a single sign-on returned), two-factor code pending (5 minutes); `sso` is the provider's,
   * copied to the session the code opens.
   */
  pendingLogin?: { userId: number; expiresAt: string; sso?: SessionSso };
  /** A single sign-on under way (10 minutes, used once): what the callback checks (decision record 023). */
  ssoLogin?: {
    providerId: number;
    state: string;
    nonce: string;
    codeVerifier: string;
    redirect: string;
    expiresAt: string;
  };
  /** A single sign-on returned, held at the terms step (10 minutes). */
  pendingSso?: {
    userId: number;
    providerId: number;
    mfa: boolean;
    redirect: string;
    expiresAt: string;
    /** SAML: the provider's session, kept for single logout once signed in. */
    saml?: Pick<SessionSso, 'nameId' | 'nameIdFormat' | 'sessionIndex'>;
  };
  /** The session was opened by single sign-on through this provider. */
  sso?: SessionSso;
  /** Last password re-confirmation, for sensitive actions (10 minutes; a sign-in counts as one). */
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
