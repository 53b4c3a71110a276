import { z } from 'zod';
import { samplingPlanSchema } from '../chart-review/sampling.js';
import { INT4_MAX } from './common.js';
import { CHART_REVIEW_MAIN_ROLES } from './permissions.js';

/**
 * Contracts of chart review, part 1 (issue 10; DOMAIN.md 2.2-2.4): the project's settings, audit tools with
 * versions and questions, programmes, and the people who can own or review. Calls under
 * /api/projects/{id}/chart-review; docs/chart-review.md lists them. Times are ISO strings.
 */

export const CR_ANSWER_TYPES = ['yes_no_na', 'yes_partial_no_na'] as const;
export type CrAnswerType = (typeof CR_ANSWER_TYPES)[number];
export const CR_VERSION_STATUSES = ['draft', 'published', 'retired'] as const;
export type CrVersionStatus = (typeof CR_VERSION_STATUSES)[number];
export const CR_PROGRAM_STATUSES = ['active', 'paused', 'closed'] as const;
export type CrProgramStatus = (typeof CR_PROGRAM_STATUSES)[number];
export const CR_GRAINS = ['month', 'quarter'] as const;
export type CrGrain = (typeof CR_GRAINS)[number];

/** Limits of a tool version (a review form stays usable on a phone). */
export const CR_LIMITS = { questions: 100, textLength: 500, helpLength: 2000, sectionLength: 120 } as const;

// Record ids are PostgreSQL integers: anything else is no record (422), never a failed query.
const id = z.number().int().positive().max(INT4_MAX);
const person = z.object({ id, name: z.string() });
const share = (what: string) =>
  z
    .number({ error: `Enter the ${what} as a number.` })
    .min(0, `The ${what} is from 0 to 1.`)
    .max(1, `The ${what} is from 0 to 1.`);

// ------------------------------------------------------------------------------------------------ settings

export const crSettingsInputSchema = z.object({
  store_encounter_ref: z.boolean(),
  reveal_roles: z.array(z.enum(CHART_REVIEW_MAIN_ROLES)).max(CHART_REVIEW_MAIN_ROLES.length),
  retention_months: z
    .number({ error: 'Enter the retention in months.' })
    .int('The retention is a whole number of months.')
    .min(1, 'Keep encounter references at least 1 month.')
    .max(120, 'Keep encounter references at most 120 months.'),
  default_irr_rate: share('second-review share'),
  irr_kappa_min: z
    .number({ error: 'Enter the minimum kappa as a number.' })
    .min(-1, 'Kappa is from -1 to 1.')
    .max(1, 'Kappa is from -1 to 1.'),
  irr_agreement_min: share('minimum agreement'),
  new_reviewer_match_min: share('new reviewer match'),
  partial_enabled: z.boolean(),
  privilege_label: z
    .string()
    .trim()
    .min(1, 'Enter the privilege label shown on every review page and export.')
    .max(300, 'The privilege label is at most 300 characters.'),
  coi_own_unit: z.boolean(),
});
export type CrSettingsInput = z.infer<typeof crSettingsInputSchema>;

export const crSettingsSchema = crSettingsInputSchema.extend({
  updated_at: z.string(),
  updated_by: person.nullable(),
  abilities: z.object({ edit: z.boolean() }),
});
export type CrSettings = z.infer<typeof crSettingsSchema>;

export const CR_DEFAULT_PRIVILEGE_LABEL =
  'Privileged and confidential: quality improvement work product. Do not copy or forward.';

// ------------------------------------------------------------------------------------------------ tools

export const QUESTION_KEY_MESSAGE =
  'A question key starts with a lower-case letter and has only lower-case letters, digits and _ (at most 63).';

export const crQuestionInputSchema = z.object({
  key: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{0,62}$/, QUESTION_KEY_MESSAGE),
  section: z
    .string()
    .trim()
    .max(CR_LIMITS.sectionLength, `A section name is at most ${CR_LIMITS.sectionLength} characters.`),
  text: z
    .string()
    .trim()
    .min(1, 'Enter the question.')
    .max(CR_LIMITS.textLength, `A question is at most ${CR_LIMITS.textLength} characters.`),
  help: z.string().trim().max(CR_LIMITS.helpLength, `The help text is at most ${CR_LIMITS.helpLength} characters.`),
  answer_type: z.enum(CR_ANSWER_TYPES),
  weight: z
    .number({ error: 'Enter the weight as a number.' })
    .gt(0, 'The weight is more than 0.')
    .max(100, 'The weight is at most 100.'),
  critical: z.boolean(),
  na_allowed: z.boolean(),
  na_reason_required: z.boolean(),
  /** Row-level expression over earlier questions' keys, e.g. `icu_patient == 'yes'`; '' = always shown. */
  show_if: z.string().trim().max(500, 'A condition is at most 500 characters.'),
});
export type CrQuestionInput = z.infer<typeof crQuestionInputSchema>;

export const crQuestionSchema = crQuestionInputSchema.extend({ id, position: z.number().int() });
export type CrQuestion = z.infer<typeof crQuestionSchema>;

/** PUT /tool-versions/{id}/questions: the whole ordered list of a draft (order = position). */
export const crQuestionsInputSchema = z.object({
  questions: z
    .array(crQuestionInputSchema)
    .max(CR_LIMITS.questions, `A tool version has at most ${CR_LIMITS.questions} questions.`),
});
export type CrQuestionsInput = z.infer<typeof crQuestionsInputSchema>;

export const crToolVersionSummarySchema = z.object({
  id,
  version: z.number().int(),
  status: z.enum(CR_VERSION_STATUSES),
  note: z.string(),
  /** Answers refer to it: nothing in it may change. */
  frozen: z.boolean(),
  published_at: z.string().nullable(),
  published_by: person.nullable(),
  question_count: z.number().int(),
});
export type CrToolVersionSummary = z.infer<typeof crToolVersionSummarySchema>;

export const crToolVersionSchema = crToolVersionSummarySchema.extend({
  tool: z.object({ id, name: z.string() }),
  questions: z.array(crQuestionSchema),
  abilities: z.object({ edit: z.boolean(), publish: z.boolean(), discard: z.boolean() }),
});
export type CrToolVersion = z.infer<typeof crToolVersionSchema>;

export const crToolInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(120, 'A name is at most 120 characters.'),
  purpose: z.string().trim().max(1000, 'The purpose is at most 1,000 characters.'),
});
export type CrToolInput = z.infer<typeof crToolInputSchema>;

/** PUT /tools/{id}: name, purpose, and retire (true) or bring back (false). */
export const crToolUpdateSchema = crToolInputSchema.extend({ retired: z.boolean() });
export type CrToolUpdate = z.infer<typeof crToolUpdateSchema>;

export const crToolSummarySchema = z.object({
  id,
  name: z.string(),
  purpose: z.string(),
  retired: z.boolean(),
  /** The version new reviews use; null until the first publication. */
  published: crToolVersionSummarySchema.nullable(),
  draft: crToolVersionSummarySchema.nullable(),
  program_count: z.number().int(),
  updated_at: z.string(),
});
export type CrToolSummary = z.infer<typeof crToolSummarySchema>;

export const crToolListSchema = z.object({
  tools: z.array(crToolSummarySchema),
  abilities: z.object({ create: z.boolean() }),
});
export type CrToolList = z.infer<typeof crToolListSchema>;

export const crToolSchema = crToolSummarySchema.extend({
  versions: z.array(crToolVersionSummarySchema),
  abilities: z.object({ edit: z.boolean() }),
});
export type CrTool = z.infer<typeof crToolSchema>;

/** POST /tool-versions/{id}/publish. */
export const crPublishInputSchema = z.object({
  note: z.string().trim().max(1000, 'The note is at most 1,000 characters.'),
});
export type CrPublishInput = z.infer<typeof crPublishInputSchema>;

// ------------------------------------------------------------------------------------------------ programmes

export const crProgramInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(120, 'A name is at most 120 characters.'),
  tool_id: id,
  /** null: the tool's latest published version at each draw. */
  pinned_version_id: id.nullable(),
  units: z
    .array(z.string().trim().min(1, 'A unit name cannot be empty.').max(120, 'A unit name is at most 120 characters.'))
    .max(100, 'A programme covers at most 100 units.'),
  grain: z.enum(CR_GRAINS),
  sampling: samplingPlanSchema,
  due_days: z
    .number({ error: 'Enter the days to complete a review.' })
    .int('The days are a whole number.')
    .min(1, 'Reviews are due 1 to 365 days after assignment.')
    .max(365, 'Reviews are due 1 to 365 days after assignment.'),
  irr_rate: share('second-review share'),
  target: share('target'),
  owner_id: id.nullable(),
  status: z.enum(CR_PROGRAM_STATUSES),
  mon_measure_id: id.nullable(),
});
export type CrProgramInput = z.infer<typeof crProgramInputSchema>;

export const crProgramSchema = crProgramInputSchema.extend({
  id,
  tool: z.object({ id, name: z.string() }),
  /** The version a sample drawn now would use (pinned, or the latest published); null: nothing published yet. */
  version_in_use: z.object({ id, version: z.number().int() }).nullable(),
  owner: person.nullable(),
  measure: z.object({ id, name: z.string() }).nullable(),
  updated_at: z.string(),
  abilities: z.object({ edit: z.boolean() }),
});
export type CrProgram = z.infer<typeof crProgramSchema>;

export const crProgramListSchema = z.object({
  programs: z.array(crProgramSchema),
  abilities: z.object({ create: z.boolean() }),
});
export type CrProgramList = z.infer<typeof crProgramListSchema>;

// ------------------------------------------------------------------------------------------------ people

/** GET /people: the project's members with a chart review main role (owners, reviewers, adjudicators). */
export const crPeopleSchema = z.object({
  people: z.array(person.extend({ role: z.enum(CHART_REVIEW_MAIN_ROLES) })),
});
export type CrPeople = z.infer<typeof crPeopleSchema>;
