import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** Versions of the terms and conditions. Published versions are never edited: a change is a new version. */
export const termsVersions = pgTable(
  'terms_versions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Rich-text HTML, sanitised with the SPEC policy before it is stored. */
    content: text('content').notNull(),
    status: text('status').notNull().default('draft'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('terms_versions_published_idx').on(t.publishedAt.desc()).where(sql`${t.status} = 'published'`),
    check('terms_versions_status_check', sql`${t.status} in ('draft', 'published')`),
    check('terms_versions_published_at_check', sql`(${t.status} = 'published') = (${t.publishedAt} is not null)`),
  ],
);
