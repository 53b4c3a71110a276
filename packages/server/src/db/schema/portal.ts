import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { ref } from './columns.js';
import { projects } from './projects.js';
import { users } from './users.js';

/** A member's main role in one app of one project (docs/permissions.md). At most one per app. */
export const projectMemberRoles = pgTable(
  'project_member_roles',
  {
    projectId: ref('project_id', () => projects.id, 'restrict'),
    userId: ref('user_id', () => users.id, 'cascade'),
    app: text('app').notNull(),
    mainRole: text('main_role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId, t.app] }),
    index('project_member_roles_user_idx').on(t.userId),
    check('project_member_roles_app_check', sql`${t.app} in ('monitoring', 'policy_management', 'chart_review')`),
  ],
);

/**
 * A project's own permission rule for a section of an app, overriding the default of docs/permissions.md.
 * An empty list locks the section (SPEC section 6).
 */
export const permissionRules = pgTable(
  'permission_rules',
  {
    projectId: ref('project_id', () => projects.id, 'restrict'),
    app: text('app').notNull(),
    path: text('path').notNull(),
    allowedRoles: text('allowed_roles').array().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.app, t.path] })],
);

/** Notifications to one user, about one project (or none: superadmin notices). */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: ref('user_id', () => users.id, 'cascade'),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    message: text('message').notNull(),
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A notice that asks for a task ("... waits for your review"): what kind and the record it is about (a policy
     * version). Marked `done_at` once the task is done, by the user or anyone else, or no longer needed.
     */
    taskKind: text('task_kind'),
    taskRef: integer('task_ref'),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_task_idx')
      .on(t.projectId, t.taskRef)
      .where(sql`${t.taskKind} is not null and ${t.doneAt} is null`),
    index('notifications_user_unread_idx').on(t.userId, t.projectId).where(sql`${t.readAt} is null`),
  ],
);

/** Messages members send to their project's administrators (Contact Us), and the admins' handling of them. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: ref('project_id', () => projects.id, 'restrict'),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    senderName: text('sender_name').notNull(),
    senderEmail: text('sender_email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    status: text('status').notNull().default('unread'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('contact_messages_project_idx').on(t.projectId, t.status, t.createdAt),
    check('contact_messages_status_check', sql`${t.status} in ('unread', 'read', 'archived')`),
  ],
);
