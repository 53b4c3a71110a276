import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, project, ref, userRef } from './columns.js';
import { policyDepartments, policyDocuments, policyVersions } from './policies.js';
import { projects } from './projects.js';
import { users } from './users.js';

/**
 * Policy management, part 2 (issue 7; decision record 007): who reviews, signs and reads each department's
 * policies, the requests of each review round, signatures with their evidence, read attestations, and the workflow's
 * history. Every table carries project_id.
 */

const documentRef = () => ref('document_id', () => policyDocuments.id, 'restrict');
const versionRef = () => ref('version_id', () => policyVersions.id, 'restrict');

/** A department's reviewers, signers and readers. */
export const policyDepartmentRoles = pgTable(
  'policy_department_roles',
  {
    projectId: project(),
    departmentId: ref('department_id', () => policyDepartments.id, 'cascade'),
    userId: ref('user_id', () => users.id, 'cascade'),
    role: text('role').notNull(),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    primaryKey({ columns: [t.departmentId, t.role, t.userId] }),
    index('policy_department_roles_project_idx').on(t.projectId, t.userId),
    check('policy_department_roles_role_check', sql`${t.role} in ('reviewer', 'signer', 'reader')`),
  ],
);

/** A project's workflow settings (defaults when there is no row). */
export const policyWorkflowSettings = pgTable('policy_workflow_settings', {
  projectId: integer('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'restrict' }),
  defaultReviewIntervalMonths: integer('default_review_interval_months').notNull().default(12),
  /** 'all': every signer asked must sign; 'one': the first signature publishes. */
  signaturesRequired: text('signatures_required').notNull().default('all'),
  /** May the author of a version sign it? */
  allowSelfSigning: boolean('allow_self_signing').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: userRef('updated_by'),
});

/** Who was asked to review or sign a version in one round, and what they answered. */
export const policyWorkflowRequests = pgTable(
  'policy_workflow_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    documentId: documentRef(),
    versionId: versionRef(),
    round: integer('round').notNull(),
    kind: text('kind').notNull(),
    userId: ref('user_id', () => users.id, 'cascade'),
    status: text('status').notNull().default('pending'),
    comment: text('comment'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('policy_workflow_requests_unique').on(t.versionId, t.round, t.kind, t.userId),
    index('policy_workflow_requests_open_idx').on(t.projectId, t.userId, t.kind).where(sql`${t.status} = 'pending'`),
    index('policy_workflow_requests_document_idx').on(t.documentId),
    check('policy_workflow_requests_kind_check', sql`${t.kind} in ('review', 'signature')`),
    check(
      'policy_workflow_requests_status_check',
      sql`${t.status} in ('pending', 'approved', 'changes_requested', 'signed', 'declined', 'withdrawn')`,
    ),
  ],
);

/**
 * An electronic signature and its evidence: who, when, from where, how they proved it was them, and the SHA-256 of
 * the exact content they signed. Rows are never deleted; a version sent back to draft voids its signatures.
 */
export const policySignatures = pgTable(
  'policy_signatures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    documentId: documentRef(),
    versionId: versionRef(),
    round: integer('round').notNull(),
    signerId: ref('signer_id', () => users.id, 'restrict'),
    /** The signer's name as it was when they signed. */
    signerName: text('signer_name').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    contentSha256: text('content_sha256').notNull(),
    method: text('method').notNull(),
    meaning: text('meaning').notNull(),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason'),
  },
  (t) => [
    uniqueIndex('policy_signatures_once').on(t.versionId, t.round, t.signerId),
    index('policy_signatures_document_idx').on(t.projectId, t.documentId),
    check('policy_signatures_method_check', sql`${t.method} in ('password', 'totp')`),
  ],
);

/** A reader's attestation that they read one version. */
export const policyAttestations = pgTable(
  'policy_attestations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    documentId: documentRef(),
    versionId: versionRef(),
    userId: ref('user_id', () => users.id, 'cascade'),
    attestedAt: timestamp('attested_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('policy_attestations_once').on(t.versionId, t.userId),
    index('policy_attestations_project_idx').on(t.projectId, t.documentId),
  ],
);

/** The workflow's history of a document: each step, who took it, and the comment given. */
export const policyWorkflowEvents = pgTable(
  'policy_workflow_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    documentId: documentRef(),
    versionId: versionRef(),
    actorId: userRef('actor_id'),
    action: text('action').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [index('policy_workflow_events_document_idx').on(t.projectId, t.documentId, t.createdAt)],
);
