import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';

/** Every message the portal sends or tries to send; with no SMTP configured messages are logged, never lost. */
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
  },
  (t) => [
    index('email_log_created_idx').on(t.createdAt),
    index('email_log_status_idx').on(t.status),
    check('email_log_status_check', sql`${t.status} in ('queued', 'sent', 'failed', 'logged')`),
  ],
);
