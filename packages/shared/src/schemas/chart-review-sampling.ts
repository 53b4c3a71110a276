import { z } from 'zod';
import { samplingPlanSchema } from '../chart-review/sampling.js';
import { INT4_MAX } from './common.js';
import { CHART_REVIEW_MAIN_ROLES } from './permissions.js';

/**
 * Contracts of chart review sampling (issue 10, part 2; DOMAIN.md 2.3-2.5; docs/chart-review.md "Sampling"): the
 * eligible-case list of a programme period, the reproducible draw, exclusions with replacement, lock and assign,
 * the pull list and the audited reveal of an encounter reference, and the units each reviewer works on. Calls under
 * /api/projects/{id}/chart-review. No names, birth dates or encounter references in any of these answers except
 * the reveal's and the pull list's, both logged.
 */

export const CR_SAMPLE_STATUSES = ['uploaded', 'drawn', 'locked'] as const;
export type CrSampleStatus = (typeof CR_SAMPLE_STATUSES)[number];
export const CR_CASE_STATUSES = ['eligible', 'selected', 'excluded'] as const;
export type CrCaseStatus = (typeof CR_CASE_STATUSES)[number];
// The assignment vocabulary as the sample shows it (the reviews contract has its own copy of the same words).
const ASSIGNMENT_ROLES = ['primary', 'second'] as const;
const ASSIGNMENT_STATUSES = ['assigned', 'in_progress', 'submitted', 'returned'] as const;
export const CR_LOCK_MODES = ['round_robin', 'by_unit'] as const;
export type CrLockMode = (typeof CR_LOCK_MODES)[number];

/** Limits of an eligible-case upload. */
export const CR_UPLOAD_LIMITS = { bytes: 10 * 1024 * 1024, rows: 50_000 } as const;

// Record ids are PostgreSQL integers: anything else is no record (422), never a failed query.
const id = z.number().int().positive().max(INT4_MAX);
const person = z.object({ id, name: z.string() });

/** A reason given before looking at patient identifiers or changing a sample: 3 to 500 characters. */
export const crReasonSchema = z
  .string({ error: 'Give a reason.' })
  .trim()
  .min(3, 'Give a reason of at least 3 characters.')
  .max(500, 'A reason is at most 500 characters.');

export const crSampleCountsSchema = z.object({
  /** Every case of the uploaded list. */
  eligible: z.number().int(),
  selected: z.number().int(),
  excluded: z.number().int(),
  /** Selected cases with a primary review assigned. */
  assigned: z.number().int(),
  /** Primary reviews submitted. */
  submitted: z.number().int(),
});
export type CrSampleCounts = z.infer<typeof crSampleCountsSchema>;

/** One programme period's sample as lists show it. */
export const crSampleSummarySchema = z.object({
  id,
  program_id: id,
  /** YYYY-MM-DD, the first day of the month or quarter. */
  period_start: z.string(),
  status: z.enum(CR_SAMPLE_STATUSES),
  file_name: z.string(),
  row_count: z.number().int(),
  size: z.number().int().nullable(),
  counts: crSampleCountsSchema,
  uploaded_at: z.string(),
  drawn_at: z.string().nullable(),
  locked_at: z.string().nullable(),
});
export type CrSampleSummary = z.infer<typeof crSampleSummarySchema>;

/** GET /programs/{id}/samples: newest period first; `upload` for the sampling section. */
export const crSampleListSchema = z.object({
  samples: z.array(crSampleSummarySchema),
  abilities: z.object({ upload: z.boolean() }),
});
export type CrSampleList = z.infer<typeof crSampleListSchema>;

export const crStratumSizeSchema = z.object({
  stratum: z.string(),
  population: z.number().int(),
  size: z.number().int(),
});
export type CrStratumSize = z.infer<typeof crStratumSizeSchema>;

export const crCaseAssignmentSchema = z.object({
  id,
  reviewer: person,
  role: z.enum(ASSIGNMENT_ROLES),
  blind: z.boolean(),
  status: z.enum(ASSIGNMENT_STATUSES),
  /** YYYY-MM-DD. */
  due_at: z.string(),
});
export type CrCaseAssignment = z.infer<typeof crCaseAssignmentSchema>;

/** A selected or excluded case of a sample: a code, a unit and a month, never the encounter reference. */
export const crSampleCaseSchema = z.object({
  id,
  case_code: z.string(),
  unit: z.string().nullable(),
  /** YYYY-MM (the month only). */
  discharge_month: z.string().nullable(),
  stratum: z.string().nullable(),
  rank: z.number().int().nullable(),
  status: z.enum(CR_CASE_STATUSES),
  exclusion_reason: z.string().nullable(),
  /** The case that took an excluded case's place. */
  replacement_case_code: z.string().nullable(),
  /** Whether the encounter reference is still stored (encrypted). */
  ref_stored: z.boolean(),
  assignments: z.array(crCaseAssignmentSchema),
});
export type CrSampleCase = z.infer<typeof crSampleCaseSchema>;

/** GET /samples/{id}: provenance, the plan and the draw, the selected and excluded cases, and what I may do. */
export const crSampleSchema = crSampleSummarySchema.extend({
  program: z.object({ id, name: z.string(), grain: z.enum(['month', 'quarter']), units: z.array(z.string()) }),
  file_sha256: z.string(),
  plan: samplingPlanSchema.nullable(),
  seed: z.string().nullable(),
  algorithm: z.string().nullable(),
  by_stratum: z.array(crStratumSizeSchema),
  tool_version: z.object({ id, version: z.number().int() }).nullable(),
  uploaded_by: person.nullable(),
  drawn_by: person.nullable(),
  locked_by: person.nullable(),
  /** The project keeps encounter references after the lock (settings.store_encounter_ref). */
  keeps_refs: z.boolean(),
  /** Some selected case still has its encounter reference: the pull list can be downloaded. */
  refs_stored: z.boolean(),
  cases: z.array(crSampleCaseSchema),
  abilities: z.object({
    upload: z.boolean(),
    draw: z.boolean(),
    exclude: z.boolean(),
    lock: z.boolean(),
    pull_list: z.boolean(),
  }),
});
export type CrSample = z.infer<typeof crSampleSchema>;

/** POST /samples/{id}/draw: the programme's plan and a fresh seed unless given. */
export const crDrawInputSchema = z.object({
  plan: samplingPlanSchema.optional(),
  seed: z
    .string()
    .trim()
    .min(1, 'Enter a seed, or leave it out for a new random one.')
    .max(100, 'A seed is at most 100 characters.')
    .optional(),
});
export type CrDrawInput = z.infer<typeof crDrawInputSchema>;

/** POST /cases/{id}/exclude. */
export const crExcludeInputSchema = z.object({ reason: crReasonSchema });
export type CrExcludeInput = z.infer<typeof crExcludeInputSchema>;

/** POST /cases/{id}/exclude answers the sample as it now is and the case that replaced the excluded one. */
export const crExcludeResultSchema = z.object({
  sample: crSampleSchema,
  replacement_case_code: z.string().nullable(),
});
export type CrExcludeResult = z.infer<typeof crExcludeResultSchema>;

const reviewerIds = z
  .array(id)
  .min(1, 'Choose at least one reviewer.')
  .max(200, 'Choose at most 200 reviewers.')
  .refine((ids) => new Set(ids).size === ids.length, 'Choose each reviewer once.');

/** POST /samples/{id}/lock. */
export const crLockInputSchema = z.object({
  mode: z.enum(CR_LOCK_MODES, { error: 'Choose round robin or by unit.' }),
  /** Round robin: the reviewers in turn. By unit: the reviewers of units the map leaves out, and of second reviews. */
  reviewer_ids: reviewerIds,
  /** By unit: the reviewers of each unit. */
  unit_reviewers: z.record(z.string(), z.array(id).max(200)).optional(),
});
export type CrLockInput = z.infer<typeof crLockInputSchema>;

/** POST /cases/{id}/reveal (section review; logged with the reason). */
export const crRevealInputSchema = z.object({ reason: crReasonSchema });
export type CrRevealInput = z.infer<typeof crRevealInputSchema>;
export const crRevealSchema = z.object({ encounter_ref: z.string() });
export type CrReveal = z.infer<typeof crRevealSchema>;

/** GET /samples/{id}/pull-list.csv?reason=... (section sampling; logged). */
export const crPullListQuerySchema = z.object({ reason: crReasonSchema });

const unitName = z
  .string()
  .trim()
  .min(1, 'A unit name cannot be empty.')
  .max(120, 'A unit name is at most 120 characters.');

/** PUT /reviewer-units: replaces the units of every reviewer (a reviewer left out works on no unit). */
export const crReviewerUnitsInputSchema = z.object({
  reviewers: z
    .array(z.object({ user_id: id, units: z.array(unitName).max(100, 'A reviewer works on at most 100 units.') }))
    .max(500),
});
export type CrReviewerUnitsInput = z.infer<typeof crReviewerUnitsInputSchema>;

/** GET /reviewer-units: the people who may review, their units, and every unit the programmes name. */
export const crReviewerUnitsSchema = z.object({
  reviewers: z.array(
    z.object({ user_id: id, name: z.string(), role: z.enum(CHART_REVIEW_MAIN_ROLES), units: z.array(z.string()) }),
  ),
  units: z.array(z.string()),
  abilities: z.object({ edit: z.boolean() }),
});
export type CrReviewerUnits = z.infer<typeof crReviewerUnitsSchema>;
