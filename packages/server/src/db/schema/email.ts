import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { userImports } from './user-imports.js';

/**
 * Every message the portal sends or tries to send, and its outbox (decision record 025): a message is written here in
 * the transaction of the change that causes it ('queued'), and the delivery worker sends it ('sending', then 'sent',
 * or back to 'queued' for a later try, or 'failed' after the last). With no SMTP configured messages are 'logged'.
 * `body_text` never holds a live set-password link: that part is kept sealed with APP_KEY in `sealed_body` only until
 * the message is delivered.
 */
export const emailLog = pgTable(
  'email_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    template: text('template').notNull(),
    bodyText: text('body_text').notNull().default(''),
    status: text('status').notNull().default('queued'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When the worker may try (again): the retry backoff. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** A worker claimed it for sending until then; past it, the worker died and the message is due again. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** The message as sent (with its link), sealed with APP_KEY; cleared once delivered. */
    sealedBody: text('sealed_body'),
    /** SHA-256 of the set-password token whose link `body_text` replaced by a marker: tells whether it was used. */
    linkTokenHash: text('link_token_hash'),
    /** The CSV import of people whose invitation this is: the import's progress is its messages' statuses. */
    userImportId: integer('user_import_id').references(() => userImports.id, { onDelete: 'set null' }),
    /** The Message-ID every try of this message carries: a redelivery after a crash is recognisably the same message. */
    messageId: text('message_id'),
  },
  (t) => [
    index('email_log_created_idx').on(t.createdAt),
    index('email_log_status_idx').on(t.status),
    index('email_log_user_import_idx').on(t.userImportId),
    index('email_log_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('queued', 'sending')`),
    check('email_log_status_check', sql`${t.status} in ('queued', 'sending', 'sent', 'failed', 'logged')`),
  ],
);
