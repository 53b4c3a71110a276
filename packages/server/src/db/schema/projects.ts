import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { storedFiles } from './files.js';
import { users } from './users.js';

export const projects = pgTable(
  'projects',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    facilityName: text('facility_name').notNull().default(''),
    address: text('address').notNull().default(''),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    /** App codes of @portal/shared APP_CODES that are switched on for this project. */
    /** The facility's logo (stored_files), shown in the portal's footer and Admin app. */
    logoFileId: integer('logo_file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    activeApps: text('active_apps').array().notNull().default(sql`'{}'::text[]`),
    /** Projects are deactivated, never deleted, once they hold records. */
    isActive: boolean('is_active').notNull().default(true),
    /**
     * Moved on by PostgreSQL (triggers of migration 0029) whenever the project's monitoring pages or their grants
     * change: the page access an instance keeps between requests is used only while it matches (decision record 028).
     */
    monAccessVersion: bigint('mon_access_version', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('projects_slug_unique').on(sql`lower(${t.slug})`),
    check('projects_slug_check', sql`${t.slug} ~ '^[A-Za-z0-9_-]{1,50}$'`),
  ],
);

export const projectMemberships = pgTable(
  'project_memberships',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'restrict' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectRole: text('project_role').notNull().default('simple'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    index('project_memberships_user_idx').on(t.userId),
    check('project_memberships_role_check', sql`${t.projectRole} in ('admin', 'simple')`),
  ],
);
