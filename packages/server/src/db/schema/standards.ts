import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, project, ref, updatedAt, userRef } from './columns.js';
import { storedFiles } from './files.js';
import { monMeasures } from './monitoring-data.js';
import { projects } from './projects.js';
import { users } from './users.js';

/**
 * Standards, part 1 (issue 11; decision record 015; DOMAIN.md 3.2): frameworks as trees of nodes (built in, or
 * imported by one project), crosswalks between nodes, the facility's own wording, standards roles, assessments with
 * one row per assessable element, chapter leads, comments, and the closed-loop links from elements to policies,
 * measures and chart review programmes. Project-owned tables carry project_id and every query filters on it;
 * built-in frameworks and their nodes have no project (every project reads them, none changes them).
 */

/** A framework edition. `project_id` null: built in (the CMS Conditions of Participation); else one project's import. */
export const stdFrameworks = pgTable(
  'std_frameworks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    publisher: text('publisher').notNull(),
    edition: text('edition').notNull(),
    textPolicy: text('text_policy').notNull(),
    licenceNote: text('licence_note').notNull().default(''),
    publicUrl: text('public_url'),
    /** The day the publisher's text was taken (an eCFR snapshot's date); null for editions without one. */
    asOf: date('as_of', { mode: 'string' }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    unique('std_frameworks_code_edition_unique').on(t.projectId, t.code, t.edition).nullsNotDistinct(),
    check(
      'std_frameworks_text_policy_check',
      sql`${t.textPolicy} in ('public_domain', 'identifiers_only', 'tenant_text')`,
    ),
    // The licence rule at the source: only the product's own built-in frameworks may be public domain.
    check('std_frameworks_public_domain_built_in', sql`${t.textPolicy} <> 'public_domain' or ${t.projectId} is null`),
  ],
);

/** A node of a framework tree: chapter, condition, standard, element of performance, tag... `urn` never changes. */
export const stdNodes = pgTable(
  'std_nodes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    frameworkId: ref('framework_id', () => stdFrameworks.id, 'cascade'),
    parentId: integer('parent_id').references((): AnyPgColumn => stdNodes.id, { onDelete: 'cascade' }),
    refId: text('ref_id').notNull(),
    urn: text('urn').notNull(),
    nodeType: text('node_type').notNull(),
    title: text('title').notNull(),
    /** The publisher's text: public-domain frameworks, or a facility's own framework (tenant_text). */
    officialText: text('official_text'),
    /** The regulation's own heading as printed ("Standard: Organization and staffing."); `title` is the product's. */
    heading: text('heading'),
    /** A paragraph with a future effective date is in force from this day and not assessed for readiness before. */
    inForceFrom: date('in_force_from', { mode: 'string' }),
    /** A section's source note: the Federal Register citations that made and amended it. */
    sourceNote: text('source_note'),
    /** A part a facility takes on only when it applies (42 CFR 482 subpart E); the wizard offers it as not applicable. */
    optional: boolean('optional').notNull().default(false),
    /** Leaves are assessed; the nodes above roll their results up. */
    assessable: boolean('assessable').notNull(),
    depth: integer('depth').notNull(),
    /** Document order across the whole tree (pre-order). */
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('std_nodes_framework_ref_unique').on(t.frameworkId, t.refId),
    uniqueIndex('std_nodes_urn_unique').on(t.urn),
    index('std_nodes_parent_idx').on(t.frameworkId, t.parentId),
    check(
      'std_nodes_type_check',
      sql`${t.nodeType} in ('chapter', 'section', 'condition', 'standard', 'element', 'ep', 'tag', 'goal')`,
    ),
  ],
);

/** Crosswalks: framework to framework (a TJC EP to a CMS tag) and edition to edition. */
export const stdMappings = pgTable(
  'std_mappings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'restrict' }),
    sourceNodeId: ref('source_node_id', () => stdNodes.id, 'cascade'),
    targetNodeId: ref('target_node_id', () => stdNodes.id, 'cascade'),
    relationship: text('relationship').notNull(),
    rationale: text('rationale').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    // Once per owner: built in (no project) or one project's; another project's crosswalk never blocks or shows.
    unique('std_mappings_pair_unique').on(t.projectId, t.sourceNodeId, t.targetNodeId).nullsNotDistinct(),
    index('std_mappings_target_idx').on(t.targetNodeId),
    check(
      'std_mappings_relationship_check',
      sql`${t.relationship} in ('equal', 'subset', 'superset', 'intersect', 'not_related')`,
    ),
  ],
);

/** The facility's own words for a node: kept per project, shared by every assessment of it. */
export const stdNodeLocal = pgTable(
  'std_node_local',
  {
    projectId: project(),
    nodeId: ref('node_id', () => stdNodes.id, 'cascade'),
    wording: text('wording').notNull().default(''),
    guidance: text('guidance').notNull().default(''),
    publicUrl: text('public_url').notNull().default(''),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.nodeId] })],
);

/** Standards roles (manage-users). Project admins act as standards admins without a row. */
export const stdMembers = pgTable(
  'std_members',
  {
    projectId: project(),
    userId: ref('user_id', () => users.id, 'cascade'),
    role: text('role').notNull(),
    createdAt: createdAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    check(
      'std_members_role_check',
      sql`${t.role} in ('standards_admin', 'chapter_lead', 'owner', 'contributor', 'mock_assessor', 'viewer')`,
    ),
  ],
);

/** An assessment of one framework edition (what /create makes): self-assessment, mock survey or survey record. */
export const stdAssessments = pgTable(
  'std_assessments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    frameworkId: ref('framework_id', () => stdFrameworks.id, 'restrict'),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    scopeNote: text('scope_note').notNull().default(''),
    surveyWindowStart: date('survey_window_start', { mode: 'string' }),
    surveyWindowEnd: date('survey_window_end', { mode: 'string' }),
    /** The assessment of an earlier edition this one was upgraded from (its results carried through a crosswalk). */
    upgradedFromId: integer('upgraded_from_id').references((): AnyPgColumn => stdAssessments.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    index('std_assessments_project_idx').on(t.projectId),
    check('std_assessments_kind_check', sql`${t.kind} in ('self', 'mock', 'survey')`),
  ],
);

/** One assessable element in one assessment: its result, its workflow status, owner and due date. */
export const stdReqAssessments = pgTable(
  'std_req_assessments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    assessmentId: ref('assessment_id', () => stdAssessments.id, 'cascade'),
    nodeId: ref('node_id', () => stdNodes.id, 'restrict'),
    result: text('result').notNull().default('not_assessed'),
    status: text('status').notNull().default('to_do'),
    naJustification: text('na_justification').notNull().default(''),
    ownerId: userRef('owner_id'),
    dueDate: date('due_date', { mode: 'string' }),
    observation: text('observation').notNull().default(''),
    lastReviewedAt: timestamp('last_reviewed_at', { withTimezone: true }),
    lastReviewedBy: userRef('last_reviewed_by'),
    /** Where a result carried by an edition upgrade came from ("RC.01.01.01 (2025): compliant, equal"); '' otherwise. */
    carriedFrom: text('carried_from').notNull().default(''),
    /** Bumped on every change: two people cannot overwrite each other unknowingly. */
    version: integer('version').notNull().default(0),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    uniqueIndex('std_req_assessments_node_unique').on(t.assessmentId, t.nodeId),
    index('std_req_assessments_project_idx').on(t.projectId, t.assessmentId),
    index('std_req_assessments_owner_idx').on(t.projectId, t.ownerId),
    check(
      'std_req_assessments_result_check',
      sql`${t.result} in ('not_assessed', 'compliant', 'partially_compliant', 'non_compliant', 'not_applicable')`,
    ),
    check('std_req_assessments_status_check', sql`${t.status} in ('to_do', 'in_progress', 'in_review', 'done')`),
    check('std_req_assessments_na_check', sql`${t.result} <> 'not_applicable' or length(${t.naJustification}) > 0`),
  ],
);

/** Chapter leads (assign-users): a lead changes the elements below their node and assigns their owners. */
export const stdLeads = pgTable(
  'std_leads',
  {
    projectId: project(),
    assessmentId: ref('assessment_id', () => stdAssessments.id, 'cascade'),
    nodeId: ref('node_id', () => stdNodes.id, 'restrict'),
    userId: ref('user_id', () => users.id, 'cascade'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [primaryKey({ columns: [t.assessmentId, t.nodeId] }), index('std_leads_user_idx').on(t.projectId, t.userId)],
);

export const stdComments = pgTable(
  'std_comments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    reqAssessmentId: ref('req_assessment_id', () => stdReqAssessments.id, 'cascade'),
    authorId: userRef('author_id'),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('std_comments_req_idx').on(t.projectId, t.reqAssessmentId)],
);

/**
 * The closed loop (DOMAIN.md 0.1): a standard element (a node, so the link holds in every assessment and edition
 * upgrade of it) supported by a policy document (its live published version), a monitoring measure or a chart
 * review programme or one of its audit questions (by the question's key, through every version of its tool).
 */
export const traceLinks = pgTable(
  'trace_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    nodeId: ref('node_id', () => stdNodes.id, 'cascade'),
    targetType: text('target_type').notNull(),
    targetId: integer('target_id').notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    uniqueIndex('trace_links_unique').on(t.projectId, t.nodeId, t.targetType, t.targetId),
    index('trace_links_target_idx').on(t.projectId, t.targetType, t.targetId),
    check('trace_links_target_type_check', sql`${t.targetType} in ('policy', 'measure', 'cr_program', 'cr_question')`),
  ],
);

/**
 * A tracer (issue 11, part 3): a surveyor's method, followed in a mock survey. An individual tracer follows one
 * patient's care through the facility (a case code only, never a name or record number), a system tracer one process
 * across units (medication management, infection control), a program tracer one service. Its findings are recorded
 * on the elements they concern (std_findings.tracer_id).
 */
export const stdTracers = pgTable(
  'std_tracers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    assessmentId: ref('assessment_id', () => stdAssessments.id, 'cascade'),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    tracedOn: date('traced_on', { mode: 'string' }).notNull(),
    unit: text('unit').notNull().default(''),
    leadId: userRef('lead_id'),
    caseCode: text('case_code').notNull().default(''),
    summary: text('summary').notNull().default(''),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('std_tracers_assessment_idx').on(t.projectId, t.assessmentId),
    check('std_tracers_kind_check', sql`${t.kind} in ('individual', 'system', 'program')`),
  ],
);

/**
 * A finding on an element (issue 11, part 2): where it came from, what was found, its SAFER cell, the correction's
 * due date (60 days, 3 for an immediate threat to life), and its plan of correction inline (one plan per finding):
 * root cause, actions, leadership involvement and preventive analysis for high-risk cells, and how the correction is
 * sustained (a monitoring measure at target for some periods in a row).
 */
export const stdFindings = pgTable(
  'std_findings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    assessmentId: ref('assessment_id', () => stdAssessments.id, 'cascade'),
    reqAssessmentId: ref('req_assessment_id', () => stdReqAssessments.id, 'cascade'),
    source: text('source').notNull(),
    /** The tracer the finding came from, if any. */
    tracerId: integer('tracer_id').references(() => stdTracers.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    likelihood: text('likelihood').notNull(),
    scope: text('scope').notNull(),
    immediateThreat: boolean('immediate_threat').notNull().default(false),
    citedOn: date('cited_on', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    status: text('status').notNull().default('open'),
    rootCause: text('root_cause').notNull().default(''),
    /** [{ what, owner_id, due, done }] */
    actions: jsonb('actions').notNull().default(sql`'[]'::jsonb`),
    leadershipInvolvement: text('leadership_involvement').notNull().default(''),
    preventiveAnalysis: text('preventive_analysis').notNull().default(''),
    measureId: integer('measure_id').references(() => monMeasures.id, { onDelete: 'set null' }),
    successPeriods: integer('success_periods').notNull().default(3),
    closedNote: text('closed_note').notNull().default(''),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('std_findings_assessment_idx').on(t.projectId, t.assessmentId, t.status),
    index('std_findings_req_idx').on(t.reqAssessmentId),
    check('std_findings_source_check', sql`${t.source} in ('self', 'mock', 'tracer', 'survey')`),
    check('std_findings_likelihood_check', sql`${t.likelihood} in ('low', 'moderate', 'high')`),
    check('std_findings_scope_check', sql`${t.scope} in ('limited', 'pattern', 'widespread')`),
    check('std_findings_status_check', sql`${t.status} in ('open', 'action_plan', 'closed')`),
    check('std_findings_periods_check', sql`${t.successPeriods} between 1 and 24`),
  ],
);

/**
 * Evidence kept on an element besides the linked policies, measures and audits (issue 11, part 3): a document file
 * (stored in stored_files), a link to where the evidence lives, or a written note, with its review status and an
 * expiry date after which it no longer counts.
 */
export const stdEvidence = pgTable(
  'std_evidence',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    reqAssessmentId: ref('req_assessment_id', () => stdReqAssessments.id, 'cascade'),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    fileId: integer('file_id').references(() => storedFiles.id, { onDelete: 'restrict' }),
    note: text('note').notNull().default(''),
    status: text('status').notNull().default('in_review'),
    expiresOn: date('expires_on', { mode: 'string' }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('std_evidence_req_idx').on(t.projectId, t.reqAssessmentId),
    check('std_evidence_kind_check', sql`${t.kind} in ('file', 'link', 'note')`),
    check('std_evidence_status_check', sql`${t.status} in ('draft', 'in_review', 'approved', 'rejected')`),
    check(
      'std_evidence_shape_check',
      sql`(${t.kind} = 'file' and ${t.fileId} is not null) or (${t.kind} = 'link' and ${t.url} is not null) or ${t.kind} = 'note'`,
    ),
  ],
);
