import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
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

/** Policy management (issue 6): departments, numbering, documents, their versions and number history. */

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const policyDepartments = pgTable(
  'policy_departments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    name: text('name').notNull(),
    /** Short code, also the numbering prefix when the project uses department prefixes ("NUR"). */
    code: text('code').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => policyDepartments.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    uniqueIndex('policy_departments_code_unique').on(t.projectId, t.code),
    uniqueIndex('policy_departments_name_unique').on(t.projectId, sql`lower(${t.name})`),
    check('policy_departments_code_check', sql`${t.code} ~ '^[A-Z][A-Z0-9]{0,9}$'`),
  ],
);

export const policyNumbering = pgTable('policy_numbering', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'restrict' }),
  levels: integer('levels').notNull().default(3),
  departmentPrefixes: boolean('department_prefixes').notNull().default(false),
  prefixSeparator: text('prefix_separator').notNull().default('-'),
  updatedAt: updatedAt(),
  updatedBy: userRef('updated_by'),
});

export const policyDocuments = pgTable(
  'policy_documents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    /** Dotted number, a label (never a key); null until one is assigned. Unique per project among live documents. */
    number: text('number'),
    title: text('title').notNull(),
    departmentId: integer('department_id').references(() => policyDepartments.id, { onDelete: 'restrict' }),
    ownerId: userRef('owner_id'),
    status: text('status').notNull().default('draft'),
    /** The published version readers see; null until one is published. */
    currentVersionId: integer('current_version_id'),
    /** The working version (draft, in review, pending signature), if any. */
    draftVersionId: integer('draft_version_id'),
    reviewIntervalMonths: integer('review_interval_months').notNull().default(12),
    nextReviewOn: date('next_review_on', { mode: 'string' }),
    effectiveOn: date('effective_on', { mode: 'string' }),
    /** Plain text of the searchable version: the current one, or the draft of a never-published document. */
    searchText: text('search_text').notNull().default(''),
    /** Number and title alone: a title match is always a search candidate, however common the word is. */
    titleVector: tsvector('title_vector').generatedAlwaysAs(
      sql`to_tsvector('english', coalesce(number, '') || ' ' || title)`,
    ),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(number, '') || ' ' || title), 'A') || setweight(to_tsvector('english', left(search_text, 500000)), 'B')`,
    ),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    archivedBy: userRef('archived_by'),
    /** The policy that took this one's place when it was retired: its stable link leads there. */
    replacedById: integer('replaced_by_id').references((): AnyPgColumn => policyDocuments.id, { onDelete: 'set null' }),
    /** When the owner was last reminded of the periodic review (the daily job reminds at most weekly). */
    reviewRemindedAt: timestamp('review_reminded_at', { withTimezone: true }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    uniqueIndex('policy_documents_number_unique')
      .on(t.projectId, t.number)
      .where(sql`${t.number} is not null and ${t.status} <> 'archived'`),
    index('policy_documents_project_idx').on(t.projectId, t.status),
    index('policy_documents_department_idx').on(t.departmentId),
    index('policy_documents_search_idx').using('gin', t.searchVector),
    index('policy_documents_title_search_idx').using('gin', t.titleVector),
    // Typo tolerance (pg_trgm, created by the migration): "hand hygeine" still finds the title.
    index('policy_documents_title_trgm_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
    check(
      'policy_documents_status_check',
      sql`${t.status} in ('draft', 'in_review', 'pending_signature', 'published', 'archived')`,
    ),
  ],
);

export const policyVersions = pgTable(
  'policy_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    documentId: ref('document_id', () => policyDocuments.id, 'restrict'),
    version: integer('version').notNull(),
    state: text('state').notNull().default('draft'),
    /** Sanitised HTML (SPEC section 5). */
    content: text('content').notNull().default(''),
    changeSummary: text('change_summary').notNull().default(''),
    effectiveOn: date('effective_on', { mode: 'string' }),
    authorId: userRef('author_id'),
    sourceFileId: integer('source_file_id').references(() => storedFiles.id, { onDelete: 'restrict' }),
    /** Bumped on every save, so two editors cannot overwrite each other unknowingly. */
    revision: integer('revision').notNull().default(0),
    /** How many times this version was sent to review: requests and signatures belong to one round. */
    round: integer('round').notNull().default(0),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    uniqueIndex('policy_versions_document_version_unique').on(t.documentId, t.version),
    index('policy_versions_project_idx').on(t.projectId, t.state),
    check(
      'policy_versions_state_check',
      sql`${t.state} in ('draft', 'in_review', 'pending_signature', 'published', 'superseded')`,
    ),
  ],
);

/** Every number a document had: renumbering keeps history. */
export const policyNumberHistory = pgTable(
  'policy_number_history',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    documentId: ref('document_id', () => policyDocuments.id, 'restrict'),
    fromNumber: text('from_number'),
    toNumber: text('to_number'),
    reason: text('reason').notNull(),
    changedBy: userRef('changed_by'),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('policy_number_history_document_idx').on(t.documentId, t.changedAt)],
);

/** Idempotency-Key of an upload: a retried upload answers with the document the first one created. */
export const policyUploadKeys = pgTable(
  'policy_upload_keys',
  {
    projectId: project(),
    userId: ref('user_id', () => users.id, 'cascade'),
    key: text('key').notNull(),
    documentId: ref('document_id', () => policyDocuments.id, 'restrict'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId, t.key] })],
);

/**
 * The project members who take part in policy management ("policy users", SPEC section 7). A policy main role
 * implies a row here; a row without a main role is a policy user still waiting for one ("unconfigured").
 */
export const policyUsers = pgTable(
  'policy_users',
  {
    projectId: project(),
    userId: ref('user_id', () => users.id, 'cascade'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);
