import { integer, pgTable } from 'drizzle-orm/pg-core';
import { createdAt, userRef } from './columns.js';

/**
 * A CSV import of people (modules/superadmin/user-import.service.ts): how many people it invited. Its invitations are
 * email log rows queued in the import's transaction (`email_log.user_import_id`); their statuses are its progress.
 */
export const userImports = pgTable('user_imports', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  createdBy: userRef('created_by'),
  total: integer('total').notNull(),
  createdAt: createdAt(),
});
