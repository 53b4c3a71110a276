import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { crPrograms, crQuestions, crToolVersions } from './chart-review.js';
import { at, createdAt, project, ref, updatedAt, userRef } from './columns.js';
import { monMeasures } from './monitoring-data.js';
import { users } from './users.js';

/**
 * Chart review, part 2 (issue 10; decision record 013; DOMAIN.md 2.2): samples with their eligible cases, review
 * assignments and answers, second reviews and their adjudication, the materialised case results, findings with
 * their action plans, and the log of every look at patient identifiers. Every table carries project_id; every query
 * filters on it. No names or birth dates anywhere: a case is a random case code, a unit and a discharge month; the
 * encounter reference is encrypted (AES-256-GCM with the app key) and purged when the project does not keep it.
 */

/**
 * One programme period's sample: the uploaded eligible-case list (its file name, SHA-256 and row count; the rows
 * become `cr_cases`), the plan and seed it was drawn with, and its state: `uploaded` (no draw yet), `drawn` (may be
 * drawn again or changed by exclusions), `locked` (assigned; the selection never changes again).
 */
export const crSamples = pgTable(
  'cr_samples',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    programId: ref('program_id', () => crPrograms.id, 'restrict'),
    /** The first day of the programme's month or quarter. */
    periodStart: date('period_start').notNull(),
    fileName: text('file_name').notNull(),
    fileSha256: text('file_sha256').notNull(),
    rowCount: integer('row_count').notNull(),
    status: text('status').notNull().default('uploaded'),
    /** SamplingPlan (packages/shared/src/chart-review/sampling.ts) used for the draw; null before it. */
    plan: jsonb('plan'),
    seed: text('seed'),
    algorithm: text('algorithm'),
    size: integer('size'),
    /** [{ stratum, population, size }] of the draw. */
    byStratum: jsonb('by_stratum'),
    /** The tool version the reviews of this sample use, fixed when it is locked. */
    toolVersionId: integer('tool_version_id').references(() => crToolVersions.id, { onDelete: 'restrict' }),
    uploadedAt: createdAt(),
    uploadedBy: userRef('uploaded_by'),
    drawnAt: at('drawn_at'),
    drawnBy: userRef('drawn_by'),
    lockedAt: at('locked_at'),
    lockedBy: userRef('locked_by'),
  },
  (t) => [
    uniqueIndex('cr_samples_period_unique').on(t.programId, t.periodStart),
    index('cr_samples_project_idx').on(t.projectId),
    check('cr_samples_status_check', sql`${t.status} in ('uploaded', 'drawn', 'locked')`),
  ],
);

/**
 * An eligible case of a sample. Every eligible case is ranked by the draw (`sample_rank` within its `stratum`), so
 * anyone holding the list and the seed can re-check the selection and an exclusion takes the next ranked case.
 * Status: eligible (not selected), selected, excluded (with a reason; `replaced_by_case_id` names its replacement).
 */
export const crCases = pgTable(
  'cr_cases',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    sampleId: ref('sample_id', () => crSamples.id, 'cascade'),
    programId: ref('program_id', () => crPrograms.id, 'restrict'),
    periodStart: date('period_start').notNull(),
    /** Random and meaningless, e.g. CR-2026-03-0142: what every screen and export shows. */
    caseCode: text('case_code').notNull(),
    unit: text('unit'),
    /** First day of the discharge month (never the day). */
    dischargeMonth: date('discharge_month'),
    /** AES-256-GCM of the encounter reference; null once purged or when the project does not keep it. */
    encounterRefEnc: text('encounter_ref_enc'),
    /** HMAC-SHA-256 of the reference with the app key: finds repeats without reading the reference. */
    refHash: text('ref_hash').notNull(),
    stratum: text('stratum'),
    sampleRank: integer('sample_rank'),
    status: text('status').notNull().default('eligible'),
    exclusionReason: text('exclusion_reason'),
    excludedAt: at('excluded_at'),
    excludedBy: userRef('excluded_by'),
    replacedByCaseId: integer('replaced_by_case_id'),
    refPurgedAt: at('ref_purged_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('cr_cases_code_unique').on(t.projectId, t.caseCode),
    uniqueIndex('cr_cases_ref_unique').on(t.sampleId, t.refHash),
    index('cr_cases_sample_idx').on(t.sampleId, t.stratum, t.sampleRank),
    index('cr_cases_program_period_idx').on(t.programId, t.periodStart),
    check('cr_cases_status_check', sql`${t.status} in ('eligible', 'selected', 'excluded')`),
  ],
);

/**
 * A review of one case by one reviewer. `primary` is the review that counts; `second` is the blind second review of
 * the reliability share. `version` grows with every autosave, so a stale save answers 409 instead of overwriting.
 * Status: assigned, in_progress, submitted, returned (back to the reviewer with `return_reason`; answers kept).
 */
export const crAssignments = pgTable(
  'cr_assignments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    caseId: ref('case_id', () => crCases.id, 'cascade'),
    programId: ref('program_id', () => crPrograms.id, 'restrict'),
    toolVersionId: ref('tool_version_id', () => crToolVersions.id, 'restrict'),
    reviewerId: ref('reviewer_id', () => users.id, 'restrict'),
    role: text('role').notNull().default('primary'),
    /** A blind review never shows the other reviewer's answers. */
    blind: boolean('blind').notNull().default(false),
    dueAt: date('due_at').notNull(),
    status: text('status').notNull().default('assigned'),
    version: integer('version').notNull().default(0),
    startedAt: at('started_at'),
    submittedAt: at('submitted_at'),
    returnReason: text('return_reason'),
    returnedAt: at('returned_at'),
    returnedBy: userRef('returned_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('cr_assignments_case_role_unique').on(t.caseId, t.role),
    index('cr_assignments_reviewer_idx').on(t.projectId, t.reviewerId, t.status),
    check('cr_assignments_role_check', sql`${t.role} in ('primary', 'second')`),
    check('cr_assignments_status_check', sql`${t.status} in ('assigned', 'in_progress', 'submitted', 'returned')`),
  ],
);

/** One answer of a review: yes, no, na or partial, with an optional N/A reason, note and where it was found. */
export const crAnswers = pgTable(
  'cr_answers',
  {
    projectId: project(),
    assignmentId: ref('assignment_id', () => crAssignments.id, 'cascade'),
    questionId: ref('question_id', () => crQuestions.id, 'restrict'),
    value: text('value'),
    naReason: text('na_reason').notNull().default(''),
    note: text('note').notNull().default(''),
    /** Where in the chart, e.g. "MAR 3/4" (no patient data). */
    evidenceLocation: text('evidence_location').notNull().default(''),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.assignmentId, t.questionId] }),
    check('cr_answers_value_check', sql`${t.value} is null or ${t.value} in ('yes', 'no', 'na', 'partial')`),
  ],
);

/**
 * A case reviewed twice. When both reviews are in, the items are compared; `status` agreed (every item the same:
 * the primary answers count), disagreed (waiting for adjudication: the case does not count yet) or adjudicated
 * (`final` holds the value chosen for each disagreeing key, with the adjudicator's comment).
 */
export const crIrrPairs = pgTable(
  'cr_irr_pairs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    caseId: ref('case_id', () => crCases.id, 'cascade'),
    primaryAssignmentId: ref('primary_assignment_id', () => crAssignments.id, 'cascade'),
    secondAssignmentId: ref('second_assignment_id', () => crAssignments.id, 'cascade'),
    status: text('status').notNull().default('pending'),
    itemsCompared: integer('items_compared'),
    itemsAgreed: integer('items_agreed'),
    /** { [questionKey]: { value, comment } } for the keys that disagreed. */
    final: jsonb('final'),
    adjudicatedAt: at('adjudicated_at'),
    adjudicatedBy: userRef('adjudicated_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('cr_irr_pairs_case_unique').on(t.caseId),
    check('cr_irr_pairs_status_check', sql`${t.status} in ('pending', 'agreed', 'disagreed', 'adjudicated')`),
  ],
);

/**
 * The result of a case, written when its review is submitted (and again when a second review or adjudication
 * changes the final answers). `counts` is false while a disagreement waits for adjudication: such a case is in no
 * rate. `answers` holds the final value of each question key the score used.
 */
export const crCaseResults = pgTable(
  'cr_case_results',
  {
    caseId: integer('case_id')
      .primaryKey()
      .references(() => crCases.id, { onDelete: 'cascade' }),
    projectId: project(),
    programId: ref('program_id', () => crPrograms.id, 'restrict'),
    periodStart: date('period_start').notNull(),
    unit: text('unit'),
    toolVersionId: ref('tool_version_id', () => crToolVersions.id, 'restrict'),
    score: doublePrecision('score'),
    applicable: integer('applicable').notNull(),
    met: integer('met').notNull(),
    allOrNone: boolean('all_or_none'),
    answers: jsonb('answers').notNull(),
    counts: boolean('counts').notNull().default(true),
    computedAt: updatedAt(),
  },
  (t) => [index('cr_case_results_program_idx').on(t.programId, t.periodStart)],
);

/**
 * A result below the programme's target (a question, a unit or the whole programme in one period). `status`:
 * open, action_plan (a plan is being carried out) or closed.
 */
export const crFindings = pgTable(
  'cr_findings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    programId: ref('program_id', () => crPrograms.id, 'restrict'),
    periodStart: date('period_start').notNull(),
    unit: text('unit'),
    /** The question's stable key; null: the programme's overall compliance. */
    questionKey: text('question_key'),
    title: text('title').notNull(),
    rate: doublePrecision('rate'),
    n: integer('n').notNull().default(0),
    target: doublePrecision('target').notNull(),
    status: text('status').notNull().default('open'),
    closedAt: at('closed_at'),
    closedBy: userRef('closed_by'),
    closeNote: text('close_note').notNull().default(''),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('cr_findings_program_idx').on(t.projectId, t.programId, t.status),
    check('cr_findings_status_check', sql`${t.status} in ('open', 'action_plan', 'closed')`),
  ],
);

/**
 * The corrective action plan of a finding: root cause, actions with owners and due dates, and how success is
 * followed: a monitoring measure and a rule (at or beyond the target for `success_periods` periods in a row).
 */
export const crActionPlans = pgTable(
  'cr_action_plans',
  {
    findingId: integer('finding_id')
      .primaryKey()
      .references(() => crFindings.id, { onDelete: 'cascade' }),
    projectId: project(),
    rootCause: text('root_cause').notNull().default(''),
    /** [{ what, owner_id, due, done_at }] */
    actions: jsonb('actions').notNull().default(sql`'[]'::jsonb`),
    measureId: integer('measure_id').references(() => monMeasures.id, { onDelete: 'set null' }),
    successPeriods: integer('success_periods').notNull().default(3),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [check('cr_action_plans_periods_check', sql`${t.successPeriods} between 1 and 24`)],
);

/** Every look at patient identifiers: a revealed encounter reference, a pull list or an identified export. */
export const crAccessLog = pgTable(
  'cr_access_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    userId: userRef('user_id'),
    /** reveal, pull_list or export_identified. */
    action: text('action').notNull(),
    caseId: integer('case_id').references(() => crCases.id, { onDelete: 'set null' }),
    sampleId: integer('sample_id').references(() => crSamples.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('cr_access_log_project_idx').on(t.projectId, t.createdAt)],
);

/**
 * The units a reviewer works on. With the conflict-of-interest rule on (`cr_settings.coi_own_unit`), a reviewer is
 * never assigned a case of one of these units.
 */
export const crReviewerUnits = pgTable(
  'cr_reviewer_units',
  {
    projectId: project(),
    userId: ref('user_id', () => users.id, 'cascade'),
    unit: text('unit').notNull(),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId, t.unit] })],
);
