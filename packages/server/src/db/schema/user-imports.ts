import { integer, pgTable } from 'drizzle-orm/pg-core';
import { at, createdAt, userRef } from './columns.js';

/**
 * A CSV import of people (modules/superadmin/user-import.service.ts): how many invitations it has to send, and how many went out or
 * failed so far, so the screen can show the progress while they are sent in the background.
 */
export const userImports = pgTable('user_imports', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  createdBy: userRef('created_by'),
  total: integer('total').notNull(),
  sent: integer('sent').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  createdAt: createdAt(),
  finishedAt: at('finished_at'),
});
