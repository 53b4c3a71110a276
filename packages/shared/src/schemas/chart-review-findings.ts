import { z } from 'zod';
import { INT4_MAX, isRealDay } from './common.js';

/**
 * Contracts of chart review findings and corrective action plans (issue 10; DOMAIN.md 2.2 `cr_finding`,
 * `cr_action_plan`, 2.6 "finding -> CAP -> Monitoring measure with a success rule"). Calls under
 * /api/projects/{id}/chart-review; docs/chart-review.md "Findings and action plans" lists them. Rates and targets
 * are shares from 0 to 1; periods are the first day of the programme's month or quarter; times are ISO strings.
 */

export const CR_FINDING_STATUSES = ['open', 'action_plan', 'closed'] as const;
export type CrFindingStatus = (typeof CR_FINDING_STATUSES)[number];

/** Below this many applicable answers a rate is flagged "small n" (screens grey it; DOMAIN.md 2.3). */
export const CR_FINDING_SMALL_N = 5;

export const CR_FINDING_LIMITS = {
  actions: 30,
  what: 500,
  rootCause: 4000,
  title: 300,
  note: 1000,
  unit: 120,
} as const;

// Record ids are PostgreSQL integers: anything else is no record (422), never a failed query.
const id = z.number().int().positive().max(INT4_MAX);
const person = z.object({ id, name: z.string() });

/** A real calendar day 'YYYY-MM-DD' (2026-02-30 is refused). */
export const crIsRealDay = isRealDay;

const day = (message: string) => z.string().refine(crIsRealDay, message);

// ------------------------------------------------------------------------------------------------ requests

/** GET /programs/{id}/finding-suggestions?period= */
export const crFindingSuggestionsQuerySchema = z.object({
  period: day('Choose a period: the first day of a month or quarter, like 2026-03-01.'),
});

/** GET /findings?status=&program= */
export const crFindingListQuerySchema = z.object({
  status: z.enum(CR_FINDING_STATUSES).optional(),
  program: z
    .string()
    .regex(/^\d{1,10}$/, 'The programme id is 1 to 10 digits.')
    .transform(Number)
    .pipe(z.number().max(INT4_MAX, 'No such programme.'))
    .optional(),
});

/** POST /programs/{id}/findings: the rate and n are computed on the server. */
export const crFindingInputSchema = z.object({
  period_start: day('Choose a period: the first day of a month or quarter, like 2026-03-01.'),
  /** null: every unit. */
  unit: z
    .string()
    .trim()
    .min(1, 'A unit name cannot be empty.')
    .max(CR_FINDING_LIMITS.unit, `A unit name is at most ${CR_FINDING_LIMITS.unit} characters.`)
    .nullable(),
  /** null: the programme's overall compliance. */
  question_key: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{0,62}$/, 'Choose a question of the tool.')
    .nullable(),
  /** Written from the rate when left out or empty. */
  title: z
    .string()
    .trim()
    .max(CR_FINDING_LIMITS.title, `A title is at most ${CR_FINDING_LIMITS.title} characters.`)
    .optional(),
});
export type CrFindingInput = z.infer<typeof crFindingInputSchema>;

export const crActionInputSchema = z.object({
  what: z
    .string()
    .trim()
    .min(1, 'Say what will be done.')
    .max(CR_FINDING_LIMITS.what, `An action is at most ${CR_FINDING_LIMITS.what} characters.`),
  owner_id: z
    .number({ error: 'Choose who owns this action.' })
    .int('Choose who owns this action.')
    .positive('Choose who owns this action.')
    .max(INT4_MAX, 'Choose who owns this action.'),
  due: day('Enter a due date like 2026-03-31.'),
  /** When the action was done; null while it is open. */
  done_at: z.iso.datetime({ offset: true, error: 'A done time is a date and time.' }).nullable(),
});
export type CrActionInput = z.infer<typeof crActionInputSchema>;

/** PUT /findings/{id}/plan: the whole plan. */
export const crActionPlanInputSchema = z.object({
  root_cause: z
    .string()
    .trim()
    .max(CR_FINDING_LIMITS.rootCause, `The root cause is at most ${CR_FINDING_LIMITS.rootCause} characters.`),
  actions: z
    .array(crActionInputSchema)
    .max(CR_FINDING_LIMITS.actions, `A plan has at most ${CR_FINDING_LIMITS.actions} actions.`),
  /** A monitoring measure of the project that follows the improvement; null: the programme's own compliance. */
  measure_id: id.nullable(),
  success_periods: z
    .number({ error: 'Enter the number of periods.' })
    .int('The periods are a whole number.')
    .min(1, 'Success needs 1 to 24 periods in a row.')
    .max(24, 'Success needs 1 to 24 periods in a row.'),
});
export type CrActionPlanInput = z.infer<typeof crActionPlanInputSchema>;

/** POST /findings/{id}/close and /reopen. */
export const crFindingNoteInputSchema = z.object({
  note: z
    .string()
    .trim()
    .min(1, 'Write a note: why this finding changes status.')
    .max(CR_FINDING_LIMITS.note, `The note is at most ${CR_FINDING_LIMITS.note} characters.`),
});
export type CrFindingNoteInput = z.infer<typeof crFindingNoteInputSchema>;

// ------------------------------------------------------------------------------------------------ answers

export const crFindingSuggestionSchema = z.object({
  unit: z.string().nullable(),
  question_key: z.string().nullable(),
  question_text: z.string().nullable(),
  title: z.string(),
  rate: z.number(),
  n: z.number().int(),
  target: z.number(),
  small_n: z.boolean(),
});
export type CrFindingSuggestion = z.infer<typeof crFindingSuggestionSchema>;

/** What falls short in a period and has no finding yet: overall first, then questions, then units. */
export const crFindingSuggestionsSchema = z.object({
  program: z.object({ id, name: z.string(), grain: z.enum(['month', 'quarter']), target: z.number() }),
  period: z.string(),
  /** Counted case results of the period. */
  cases: z.number().int(),
  suggestions: z.array(crFindingSuggestionSchema),
  abilities: z.object({ create: z.boolean() }),
});
export type CrFindingSuggestions = z.infer<typeof crFindingSuggestionsSchema>;

/**
 * The success rule: the linked measure (or, without one, the programme's compliance) at or beyond the programme's
 * target for `required` complete periods in a row after the finding's period. Values are shares (0.92), on the
 * scale of the target.
 */
export const crSuccessStateSchema = z.object({
  met: z.boolean(),
  source: z.enum(['measure', 'program']),
  required: z.number().int(),
  /** Complete periods after the finding's period looked at (at most `required`, the latest). */
  periods_checked: z.number().int(),
  target: z.number(),
  latest: z.array(z.object({ period: z.string(), value: z.number().nullable(), met: z.boolean() })),
});
export type CrSuccessState = z.infer<typeof crSuccessStateSchema>;

export const crPlanSummarySchema = z.object({
  actions_done: z.number().int(),
  actions_total: z.number().int(),
  /** The earliest due date of an open action. */
  next_due: z.string().nullable(),
  /** Open actions past their due date. */
  overdue: z.number().int(),
  success: crSuccessStateSchema,
});
export type CrPlanSummary = z.infer<typeof crPlanSummarySchema>;

export const crFindingSummarySchema = z.object({
  id,
  program: z.object({ id, name: z.string(), grain: z.enum(['month', 'quarter']) }),
  period_start: z.string(),
  unit: z.string().nullable(),
  question_key: z.string().nullable(),
  question_text: z.string().nullable(),
  title: z.string(),
  rate: z.number().nullable(),
  n: z.number().int(),
  target: z.number(),
  small_n: z.boolean(),
  status: z.enum(CR_FINDING_STATUSES),
  created_at: z.string(),
  closed_at: z.string().nullable(),
  plan: crPlanSummarySchema,
});
export type CrFindingSummary = z.infer<typeof crFindingSummarySchema>;

export const crFindingListSchema = z.object({
  findings: z.array(crFindingSummarySchema),
  abilities: z.object({ create: z.boolean() }),
});
export type CrFindingList = z.infer<typeof crFindingListSchema>;

export const crActionSchema = crActionInputSchema.extend({ owner: person.nullable() });
export type CrAction = z.infer<typeof crActionSchema>;

export const crFindingSchema = crFindingSummarySchema.extend({
  close_note: z.string(),
  closed_by: person.nullable(),
  created_by: person.nullable(),
  action_plan: z.object({
    root_cause: z.string(),
    actions: z.array(crActionSchema),
    measure_id: id.nullable(),
    success_periods: z.number().int(),
    /** null until the plan is first saved. */
    updated_at: z.string().nullable(),
    updated_by: person.nullable(),
  }),
  /** The linked measure (a deleted one shows as no link). */
  measure: z.object({ id, name: z.string() }).nullable(),
  abilities: z.object({ edit: z.boolean() }),
});
export type CrFinding = z.infer<typeof crFindingSchema>;

/** GET /findings/measures: the project's live monitoring measures a plan may follow. */
export const crFindingMeasuresSchema = z.object({
  measures: z.array(z.object({ id, name: z.string(), page: z.string() })),
});
export type CrFindingMeasures = z.infer<typeof crFindingMeasuresSchema>;
