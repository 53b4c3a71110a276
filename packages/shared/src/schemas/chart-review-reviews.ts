import { z } from 'zod';
import { crQuestionSchema } from './chart-review.js';
import { INT4_MAX } from './common.js';

/**
 * Contracts of chart review reviews (issue 10, part 2; DOMAIN.md 2.3-2.5): my assignments, the review form with its
 * autosave and submit, returning and reassigning a review, second reviews (inter-rater reliability) and their
 * adjudication. Calls under /api/projects/{id}/chart-review; docs/chart-review.md "Reviews" lists them.
 */

export const CR_ANSWER_VALUES = ['yes', 'no', 'na', 'partial'] as const;
export type CrAnswerValue = (typeof CR_ANSWER_VALUES)[number];
export const CR_ASSIGNMENT_STATUSES = ['assigned', 'in_progress', 'submitted', 'returned'] as const;
export type CrAssignmentStatus = (typeof CR_ASSIGNMENT_STATUSES)[number];
export const CR_ASSIGNMENT_ROLES = ['primary', 'second'] as const;
export const CR_PAIR_STATUSES = ['pending', 'agreed', 'disagreed', 'adjudicated'] as const;
export type CrPairStatus = (typeof CR_PAIR_STATUSES)[number];

/** Limits of the free-text fields of an answer. */
export const CR_ANSWER_LIMITS = { naReason: 500, note: 2000, evidenceLocation: 200, comment: 1000, reason: 1000 };

/** The message of a stale autosave (409). */
export const CR_STALE_ANSWERS = 'These answers were changed in another window. Reload to see them.';
/** The message of a submit with unanswered questions (400, with `answers.<question_id>` errors). */
export const CR_ANSWER_EVERY_QUESTION = 'Answer every question before submitting.';

// Record ids are PostgreSQL integers: anything else is no record (422), never a failed query.
const id = z.number().int().positive().max(INT4_MAX);
const person = z.object({ id, name: z.string() });
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Give the date as YYYY-MM-DD.');

// ------------------------------------------------------------------------------------------------ my assignments

export const CR_MY_FILTERS = ['todo', 'submitted'] as const;

export const crMyAssignmentsQuerySchema = z.object({
  /** todo: not submitted yet; submitted. Absent: both, the submitted ones last. */
  status: z.enum(CR_MY_FILTERS, { error: 'Choose todo or submitted.' }).optional(),
  program: z
    .string()
    .regex(/^\d{1,10}$/, 'The programme id is 1 to 10 digits.')
    .transform(Number)
    .pipe(z.number().max(INT4_MAX, 'No such programme.'))
    .optional(),
});

export const crMyAssignmentSchema = z.object({
  id,
  case_code: z.string(),
  program: z.object({ id, name: z.string() }),
  unit: z.string().nullable(),
  period_start: z.string(),
  due_at: z.string(),
  overdue: z.boolean(),
  status: z.enum(CR_ASSIGNMENT_STATUSES),
  role: z.enum(CR_ASSIGNMENT_ROLES),
  return_reason: z.string().nullable(),
  /** Answered visible questions of the visible ones (conditions evaluated over the saved answers). */
  progress: z.object({ answered: z.number().int(), total: z.number().int() }),
});
export type CrMyAssignment = z.infer<typeof crMyAssignmentSchema>;

export const crMyAssignmentsSchema = z.object({ assignments: z.array(crMyAssignmentSchema) });
export type CrMyAssignments = z.infer<typeof crMyAssignmentsSchema>;

// ------------------------------------------------------------------------------------------------ the form

export const crAnswerInputSchema = z.object({
  question_id: id,
  /** null: not answered (cleared). */
  value: z.enum(CR_ANSWER_VALUES, { error: 'Answer yes, no, na or partial.' }).nullable(),
  na_reason: z
    .string()
    .trim()
    .max(CR_ANSWER_LIMITS.naReason, `A reason for N/A is at most ${CR_ANSWER_LIMITS.naReason} characters.`),
  note: z.string().trim().max(CR_ANSWER_LIMITS.note, `A note is at most ${CR_ANSWER_LIMITS.note} characters.`),
  evidence_location: z
    .string()
    .trim()
    .max(
      CR_ANSWER_LIMITS.evidenceLocation,
      `Where it was found is at most ${CR_ANSWER_LIMITS.evidenceLocation} characters.`,
    ),
});
export type CrAnswerInput = z.infer<typeof crAnswerInputSchema>;

export const crAnswerSchema = crAnswerInputSchema.extend({ updated_at: z.string() });
export type CrAnswer = z.infer<typeof crAnswerSchema>;

/** PUT /assignments/{id}/answers: the changed answers and the version they were made on. */
export const crAnswersInputSchema = z.object({
  version: z.number().int().min(0).max(INT4_MAX, 'No such version.'),
  answers: z.array(crAnswerInputSchema).max(100, 'Save at most 100 answers at once.'),
});
export type CrAnswersInput = z.infer<typeof crAnswersInputSchema>;

/** A free-text field that looks like patient data (an MRN, a phone number, a date of birth): saved, but flagged. */
export const crAnswerWarningSchema = z.object({
  question_id: id,
  field: z.enum(['na_reason', 'note', 'evidence_location']),
  message: z.string(),
});
export type CrAnswerWarning = z.infer<typeof crAnswerWarningSchema>;

export const crAnswersSavedSchema = z.object({
  version: z.number().int(),
  status: z.enum(CR_ASSIGNMENT_STATUSES),
  warnings: z.array(crAnswerWarningSchema),
});
export type CrAnswersSaved = z.infer<typeof crAnswersSavedSchema>;

export const crReviewFormSchema = z.object({
  id,
  case: z.object({
    case_id: id,
    case_code: z.string(),
    unit: z.string().nullable(),
    /** YYYY-MM-01 or null. */
    discharge_month: z.string().nullable(),
    has_encounter_ref: z.boolean(),
    /** The project keeps references, this case has one and the actor's role may reveal it. */
    may_reveal: z.boolean(),
  }),
  program: z.object({ id, name: z.string() }),
  period_start: z.string(),
  privilege_label: z.string(),
  partial_enabled: z.boolean(),
  questions: z.array(crQuestionSchema),
  answers: z.array(crAnswerSchema),
  version: z.number().int(),
  status: z.enum(CR_ASSIGNMENT_STATUSES),
  reviewer: person,
  /** The actor is this review's reviewer (false: a lead or admin looking at it). */
  mine: z.boolean(),
  due_at: z.string(),
  overdue: z.boolean(),
  submitted_at: z.string().nullable(),
  return_reason: z.string().nullable(),
  abilities: z.object({ edit: z.boolean(), submit: z.boolean(), return: z.boolean(), reassign: z.boolean() }),
});
export type CrReviewForm = z.infer<typeof crReviewFormSchema>;

export const crReturnInputSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Say why the review goes back to its reviewer.')
    .max(CR_ANSWER_LIMITS.reason, `A reason is at most ${CR_ANSWER_LIMITS.reason} characters.`),
});
export type CrReturnInput = z.infer<typeof crReturnInputSchema>;

export const crReassignInputSchema = z.object({ reviewer_id: id });
export type CrReassignInput = z.infer<typeof crReassignInputSchema>;

// ------------------------------------------------------------------------------------------------ reliability

export const crIrrQuerySchema = z.object({ period: isoDay.optional() });

export const crIrrFiguresSchema = z.object({
  /** Items compared (both raters answered). */
  n: z.number().int(),
  agreed: z.number().int(),
  percent: z.number().nullable(),
  kappa: z.number().nullable(),
  pabak: z.number().nullable(),
});

export const crIrrQuestionSchema = crIrrFiguresSchema.extend({
  key: z.string(),
  text: z.string(),
  /** κ below 0.70 or below the project's thresholds (kappa or agreement). */
  flagged: z.boolean(),
});
export type CrIrrQuestion = z.infer<typeof crIrrQuestionSchema>;

export const crIrrPairSummarySchema = z.object({
  /** null while neither review has been submitted (no pair recorded yet). */
  id: id.nullable(),
  case_id: id,
  case_code: z.string(),
  unit: z.string().nullable(),
  period_start: z.string(),
  primary_reviewer: person.nullable(),
  second_reviewer: person.nullable(),
  status: z.enum(CR_PAIR_STATUSES),
  items_compared: z.number().int().nullable(),
  items_agreed: z.number().int().nullable(),
});
export type CrIrrPairSummary = z.infer<typeof crIrrPairSummarySchema>;

export const crIrrProgramSchema = z.object({
  program: z.object({ id, name: z.string() }),
  period: z.string().nullable(),
  /** Periods of the programme that have second reviews, newest first. */
  periods: z.array(z.string()),
  privilege_label: z.string(),
  thresholds: z.object({ kappa_min: z.number(), agreement_min: z.number() }),
  pairs: z.array(crIrrPairSummarySchema),
  questions: z.array(crIrrQuestionSchema),
  overall: crIrrFiguresSchema.extend({ completed_pairs: z.number().int(), meets: z.boolean() }),
});
export type CrIrrProgram = z.infer<typeof crIrrProgramSchema>;

const side = z.object({ value: z.enum(CR_ANSWER_VALUES).nullable(), note: z.string() });

export const crIrrDisagreementSchema = z.object({
  key: z.string(),
  text: z.string(),
  help: z.string(),
  answer_type: z.string(),
  na_allowed: z.boolean(),
  a: side,
  b: side,
  final: z.object({ value: z.enum(CR_ANSWER_VALUES), comment: z.string() }).nullable(),
});
export type CrIrrDisagreement = z.infer<typeof crIrrDisagreementSchema>;

export const crIrrPairSchema = z.object({
  id,
  case_code: z.string(),
  unit: z.string().nullable(),
  period_start: z.string(),
  program: z.object({ id, name: z.string() }),
  privilege_label: z.string(),
  partial_enabled: z.boolean(),
  status: z.enum(CR_PAIR_STATUSES),
  reviewer_a: person.nullable(),
  reviewer_b: person.nullable(),
  items_compared: z.number().int().nullable(),
  items_agreed: z.number().int().nullable(),
  disagreements: z.array(crIrrDisagreementSchema),
  adjudicated_by: person.nullable(),
  adjudicated_at: z.string().nullable(),
  abilities: z.object({ adjudicate: z.boolean() }),
  /** Why the actor may not adjudicate (they reviewed the case), else null. */
  adjudicate_blocked: z.string().nullable(),
});
export type CrIrrPair = z.infer<typeof crIrrPairSchema>;

export const crAdjudicateInputSchema = z.object({
  final: z.record(
    z.string().max(63),
    z.object({
      value: z.enum(CR_ANSWER_VALUES, { error: 'Choose the final answer.' }).nullable(),
      comment: z
        .string()
        .trim()
        .max(CR_ANSWER_LIMITS.comment, `A comment is at most ${CR_ANSWER_LIMITS.comment} characters.`),
    }),
  ),
});
export type CrAdjudicateInput = z.infer<typeof crAdjudicateInputSchema>;

export const CR_RATER_CANNOT_ADJUDICATE = 'You reviewed this case, so someone else must adjudicate it.';
