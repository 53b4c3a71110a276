import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { ref } from './columns.js';
import { projects } from './projects.js';
import { users } from './users.js';

/** Requests for new accounts that project admins file and superadmins approve or reject. */
export const userRequests = pgTable(
  'user_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: ref('project_id', () => projects.id, 'restrict'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    projectRole: text('project_role').notNull(),
    /** { app: main role } asked for. */
    mainRoles: jsonb('main_roles').$type<Record<string, string | null>>().notNull().default({}),
    justification: text('justification').notNull(),
    status: text('status').notNull().default('pending'),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('user_requests_project_idx').on(t.projectId, t.createdAt),
    index('user_requests_status_idx').on(t.status, t.createdAt),
    check('user_requests_status_check', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check('user_requests_role_check', sql`${t.projectRole} in ('admin', 'simple')`),
  ],
);
