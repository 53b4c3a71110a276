import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, project, ref, updatedAt, userRef } from './columns.js';
import { monMeasures } from './monitoring-data.js';
import { projects } from './projects.js';

/**
 * Chart review, part 1 (issue 10; decision record 012; DOMAIN.md 2.2): the project's settings, audit tools with
 * frozen versions and their questions, and programmes (a recurring audit of one tool). Cases, assignments, answers,
 * reliability pairs, findings and action plans follow in the next migration. Every table carries project_id; every
 * query filters on it.
 */

/** One row per project, created with the defaults on first read (DOMAIN.md 2.2 `cr_settings`). */
export const crSettings = pgTable(
  'cr_settings',
  {
    projectId: integer('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'restrict' }),
    /** Whether cases may keep the encounter reference (encrypted); off: case codes only. */
    storeEncounterRef: boolean('store_encounter_ref').notNull().default(false),
    /** Main roles that may reveal a stored encounter reference (each reveal is logged with a reason). */
    revealRoles: text('reveal_roles').array().notNull().default(sql`'{chart_review_admin}'::text[]`),
    /** Encounter references are purged this many months after the case's period. */
    retentionMonths: integer('retention_months').notNull().default(24),
    defaultIrrRate: doublePrecision('default_irr_rate').notNull().default(0.05),
    irrKappaMin: doublePrecision('irr_kappa_min').notNull().default(0.75),
    irrAgreementMin: doublePrecision('irr_agreement_min').notNull().default(0.95),
    newReviewerMatchMin: doublePrecision('new_reviewer_match_min').notNull().default(0.97),
    partialEnabled: boolean('partial_enabled').notNull().default(false),
    privilegeLabel: text('privilege_label').notNull(),
    /** Conflict of interest: a reviewer never reviews cases of a unit they belong to. */
    coiOwnUnit: boolean('coi_own_unit').notNull().default(true),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    check('cr_settings_rates_check', sql`${t.defaultIrrRate} >= 0 and ${t.defaultIrrRate} <= 1`),
    check('cr_settings_retention_check', sql`${t.retentionMonths} between 1 and 120`),
  ],
);

/** An audit tool (a question set). Its questions live in versions; `retired_at` hides it from new programmes. */
export const crTools = pgTable(
  'cr_tools',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    name: text('name').notNull(),
    purpose: text('purpose').notNull().default(''),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [uniqueIndex('cr_tools_name_unique').on(t.projectId, sql`lower(${t.name})`)],
);

/**
 * A version of a tool's questions. A draft is edited freely; publishing makes it the version new reviews use; once
 * any answer refers to it (`frozen_at`) nothing in it changes: a change is a new version. At most one draft per tool.
 */
export const crToolVersions = pgTable(
  'cr_tool_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    toolId: ref('tool_id', () => crTools.id, 'restrict'),
    version: integer('version').notNull(),
    /** draft, published or retired (a newer version was published). */
    status: text('status').notNull().default('draft'),
    /** What changed and why, required when publishing a version after the first. */
    note: text('note').notNull().default(''),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    publishedBy: userRef('published_by'),
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    uniqueIndex('cr_tool_versions_number_unique').on(t.toolId, t.version),
    uniqueIndex('cr_tool_versions_one_draft').on(t.toolId).where(sql`${t.status} = 'draft'`),
    check('cr_tool_versions_status_check', sql`${t.status} in ('draft', 'published', 'retired')`),
    index('cr_tool_versions_project_idx').on(t.projectId),
  ],
);

/** A question of one tool version. `key` stays the same across versions, so trends join on it. */
export const crQuestions = pgTable(
  'cr_questions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    toolVersionId: ref('tool_version_id', () => crToolVersions.id, 'cascade'),
    key: text('key').notNull(),
    section: text('section').notNull().default(''),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    /** Abstraction guideline shown beside the question. */
    help: text('help').notNull().default(''),
    /** yes_no_na, or yes_partial_no_na when the project enables Partial. */
    answerType: text('answer_type').notNull().default('yes_no_na'),
    weight: doublePrecision('weight').notNull().default(1),
    /** Part of the all-or-none set. */
    critical: boolean('critical').notNull().default(false),
    naAllowed: boolean('na_allowed').notNull().default(true),
    naReasonRequired: boolean('na_reason_required').notNull().default(false),
    /** A row-level expression over earlier questions' keys (shared expression language); '' = always shown. */
    showIf: text('show_if').notNull().default(''),
  },
  (t) => [
    uniqueIndex('cr_questions_key_unique').on(t.toolVersionId, t.key),
    index('cr_questions_version_idx').on(t.toolVersionId, t.position),
    check('cr_questions_weight_check', sql`${t.weight} > 0`),
    check('cr_questions_answer_type_check', sql`${t.answerType} in ('yes_no_na', 'yes_partial_no_na')`),
  ],
);

/** A recurring audit of one tool (DOMAIN.md 2.2 `cr_program`). */
export const crPrograms = pgTable(
  'cr_programs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    name: text('name').notNull(),
    toolId: ref('tool_id', () => crTools.id, 'restrict'),
    /** A fixed version; null: the tool's latest published version when a sample is drawn. */
    pinnedVersionId: integer('pinned_version_id').references(() => crToolVersions.id, { onDelete: 'restrict' }),
    units: text('units').array().notNull().default(sql`'{}'::text[]`),
    /** month or quarter. */
    grain: text('grain').notNull().default('month'),
    /** SamplingPlan of packages/shared/src/chart-review/sampling.ts. */
    sampling: jsonb('sampling').notNull(),
    dueDays: integer('due_days').notNull().default(14),
    irrRate: doublePrecision('irr_rate').notNull().default(0.05),
    target: doublePrecision('target').notNull().default(0.9),
    ownerId: userRef('owner_id'),
    /** active, paused or closed. */
    status: text('status').notNull().default('active'),
    /** Optional monitoring measure the monthly compliance feeds. */
    monMeasureId: integer('mon_measure_id').references(() => monMeasures.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    uniqueIndex('cr_programs_name_unique').on(t.projectId, sql`lower(${t.name})`),
    check('cr_programs_grain_check', sql`${t.grain} in ('month', 'quarter')`),
    check('cr_programs_status_check', sql`${t.status} in ('active', 'paused', 'closed')`),
    check('cr_programs_rates_check', sql`${t.irrRate} between 0 and 1 and ${t.target} between 0 and 1`),
    check('cr_programs_due_days_check', sql`${t.dueDays} between 1 and 365`),
  ],
);
