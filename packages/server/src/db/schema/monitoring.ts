import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, project, ref, updatedAt, userRef } from './columns.js';
import { storedFiles } from './files.js';
import { projects } from './projects.js';
import { users } from './users.js';

/**
 * Monitoring, part 1 (issue 8; decision record 008): the page tree with its levels and numbering, page content,
 * key insights, monitoring roles and per-page permissions, monitoring users and data requests. Every table carries
 * project_id; the measures, datasets and charts of issue 9 hang off mon_pages.
 */

/** A project's monitoring settings (defaults when there is no row). */
export const monSettings = pgTable(
  'mon_settings',
  {
    projectId: integer('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'restrict' }),
    /** 'auto': numbers follow the tree (1, 1.2, 1.2.3); 'manual': people type them, unique per project. */
    numberingMode: text('numbering_mode').notNull().default('auto'),
    /** The programme overview shown on the introduction screen (sanitised rich text). */
    introduction: text('introduction').notNull().default(''),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [check('mon_settings_numbering_mode_check', sql`${t.numberingMode} in ('auto', 'manual')`)],
);

/** The levels of the page tree (Domain, Programme, Indicator...): the tree is at most as deep as its levels. */
export const monPageLevels = pgTable(
  'mon_page_levels',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    /** 1 for top-level pages. */
    depth: integer('depth').notNull(),
    name: text('name').notNull(),
    /** A name from the web's icon set (MONITORING_LEVEL_ICONS). */
    icon: text('icon').notNull().default('folder'),
    /** Whether pages of this level may hold measures and charts (issue 9). */
    mayHoldMeasures: boolean('may_hold_measures').notNull().default(false),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    uniqueIndex('mon_page_levels_depth_unique').on(t.projectId, t.depth),
    check('mon_page_levels_depth_check', sql`${t.depth} between 1 and 8`),
  ],
);

/** A page of the tree: a domain, programme or indicator with what it measures and why. */
export const monPages = pgTable(
  'mon_pages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    parentId: integer('parent_id').references((): AnyPgColumn => monPages.id, { onDelete: 'restrict' }),
    /** Order among siblings (0, 1, 2...); a move rewrites the positions of the siblings it passes. */
    position: integer('position').notNull().default(0),
    /** 1 for top-level pages; kept with the tree so the levels can limit it. */
    depth: integer('depth').notNull().default(1),
    /** Dotted number, a label (never a key): computed from the tree in auto mode, typed in manual mode. */
    number: text('number'),
    title: text('title').notNull(),
    status: text('status').notNull().default('draft'),
    ownerId: userRef('owner_id'),
    introduction: text('introduction').notNull().default(''),
    benchmarks: text('benchmarks').notNull().default(''),
    parametersAndMetrics: text('parameters_and_metrics').notNull().default(''),
    /** A restricted page breaks inheritance: only the grants on it (and its owner, admins) open it and its branch. */
    restricted: boolean('restricted').notNull().default(false),
    /** Optimistic lock: every change adds one; a stale edit gets 409 with the current version. */
    version: integer('version').notNull().default(1),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: userRef('deleted_by'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('mon_pages_tree_idx').on(t.projectId, t.parentId, t.position),
    uniqueIndex('mon_pages_number_unique')
      .on(t.projectId, t.number)
      .where(sql`${t.deletedAt} is null and ${t.number} is not null`),
    check('mon_pages_status_check', sql`${t.status} in ('draft', 'published', 'archived')`),
  ],
);

/** Who takes part in monitoring (the users screens list them); their main role is in project_member_roles. */
export const monUsers = pgTable(
  'mon_users',
  {
    projectId: project(),
    userId: ref('user_id', () => users.id, 'cascade'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);

/** Project-defined monitoring roles (page-role-manager): groups of people that page permissions name. */
export const monRoles = pgTable(
  'mon_roles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [uniqueIndex('mon_roles_name_unique').on(t.projectId, sql`lower(${t.name})`)],
);

export const monRoleMembers = pgTable(
  'mon_role_members',
  {
    projectId: project(),
    roleId: ref('role_id', () => monRoles.id, 'cascade'),
    userId: ref('user_id', () => users.id, 'cascade'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.userId] }), index('mon_role_members_user_idx').on(t.projectId, t.userId)],
);

/** A grant on a page to a monitoring role or to one person; inherited down the tree until a restricted page. */
export const monPagePermissions = pgTable(
  'mon_page_permissions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    pageId: ref('page_id', () => monPages.id, 'cascade'),
    roleId: integer('role_id').references(() => monRoles.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** 'view' reads the page; 'edit' changes its content and insights; 'manage' also its permissions. */
    level: text('level').notNull(),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    index('mon_page_permissions_page_idx').on(t.projectId, t.pageId),
    uniqueIndex('mon_page_permissions_role_unique').on(t.pageId, t.roleId).where(sql`${t.roleId} is not null`),
    uniqueIndex('mon_page_permissions_user_unique').on(t.pageId, t.userId).where(sql`${t.userId} is not null`),
    check('mon_page_permissions_level_check', sql`${t.level} in ('view', 'edit', 'manage')`),
    check('mon_page_permissions_subject_check', sql`(${t.roleId} is null) <> (${t.userId} is null)`),
  ],
);

/** A key insight of a page: what the people who own it conclude from its data. */
export const monInsights = pgTable(
  'mon_insights',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    pageId: ref('page_id', () => monPages.id, 'restrict'),
    title: text('title').notNull(),
    /** Sanitised rich text. */
    body: text('body').notNull().default(''),
    status: text('status').notNull().default('draft'),
    authorId: userRef('author_id'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('mon_insights_page_idx').on(t.projectId, t.pageId),
    check('mon_insights_status_check', sql`${t.status} in ('draft', 'published')`),
  ],
);

/** Every saved state of an insight, so its history can be read. */
export const monInsightRevisions = pgTable(
  'mon_insight_revisions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    insightId: ref('insight_id', () => monInsights.id, 'cascade'),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull(),
    editedBy: userRef('edited_by'),
    editedAt: timestamp('edited_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mon_insight_revisions_unique').on(t.insightId, t.version)],
);

/** A request for data or a report (the "Request Data" nav item) and the data stewards' answer. */
export const monRequests = pgTable(
  'mon_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    requesterId: userRef('requester_id'),
    title: text('title').notNull(),
    purpose: text('purpose').notNull(),
    pageIds: integer('page_ids').array().notNull().default(sql`'{}'::integer[]`),
    periodFrom: date('period_from', { mode: 'string' }),
    periodTo: date('period_to', { mode: 'string' }),
    format: text('format').notNull(),
    patientLevel: boolean('patient_level').notNull().default(false),
    justification: text('justification'),
    neededBy: date('needed_by', { mode: 'string' }),
    status: text('status').notNull().default('submitted'),
    assigneeId: userRef('assignee_id'),
    response: text('response'),
    deliveredFileId: integer('delivered_file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('mon_requests_project_idx').on(t.projectId, t.status),
    check(
      'mon_requests_status_check',
      sql`${t.status} in ('submitted', 'triaged', 'in_progress', 'delivered', 'closed', 'rejected', 'cancelled')`,
    ),
    check('mon_requests_justification_check', sql`not ${t.patientLevel} or coalesce(${t.justification}, '') <> ''`),
  ],
);

export const monRequestComments = pgTable(
  'mon_request_comments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    requestId: ref('request_id', () => monRequests.id, 'cascade'),
    authorId: userRef('author_id'),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mon_request_comments_request_idx').on(t.projectId, t.requestId)],
);
