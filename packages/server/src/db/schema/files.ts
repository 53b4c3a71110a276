import { customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Uploaded files (DESIGN section 1 "files"): kept in PostgreSQL so one pg_dump backs up everything and every server
 * instance sees every file. Read and written only through lib/files.ts.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The project the file belongs to; null for installation-wide files. */
    projectId: integer('project_id'),
    contentType: text('content_type').notNull(),
    /** The name it was uploaded with (shown and used for downloads); empty for generated files. */
    fileName: text('file_name').notNull().default(''),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stored_files_project_idx').on(t.projectId)],
);
