import { z } from 'zod';
import { SPC_RULES } from '../monitoring/spc/types.js';
import { CR_GRAINS, CR_PROGRAM_STATUSES } from './chart-review.js';
import { INT4_MAX, isRealDay } from './common.js';

/**
 * Contracts of the chart review programme dashboard, compliance figures and de-identified export (issue 10, part 2;
 * DOMAIN.md 2.3-2.5; docs/chart-review.md "Dashboard"). Every rate travels with its n and, where there is one, its
 * Wilson 95 % interval; rates are shares from 0 to 1 (null when n = 0). Periods are the first day of the programme's
 * month or quarter ('YYYY-MM-DD').
 */

// Record ids are PostgreSQL integers: anything else is no record (422), never a failed query.
const id = z.number().int().positive().max(INT4_MAX);
const count = z.number().int();
const interval = z.object({ low: z.number(), high: z.number() });

/** A share with the count it was computed from and its Wilson 95 % interval (null when n = 0). */
export const crRateSchema = z.object({
  rate: z.number().nullable(),
  n: count,
  interval: interval.nullable(),
});
export type CrRate = z.infer<typeof crRateSchema>;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (label: string) =>
  z.string().superRefine((value, ctx) => {
    if (!ISO_DAY.test(value)) ctx.addIssue({ code: 'custom', message: `The ${label} is a date written YYYY-MM-DD.` });
    else if (!isRealDay(value)) ctx.addIssue({ code: 'custom', message: `The ${label} is not a real date.` });
  });

export const crPeriodSchema = z.object({ period_start: z.string(), label: z.string() });
export type CrPeriod = z.infer<typeof crPeriodSchema>;

// ------------------------------------------------------------------------------------------------ dashboard

export const crDashboardQuerySchema = z.object({ period: day('period').optional() });
export type CrDashboardQuery = z.infer<typeof crDashboardQuerySchema>;

export const crDashboardKpisSchema = z.object({
  /** Cases selected by the draw (replacements included, excluded cases not). */
  sampled: count,
  /** Sampled cases with a primary review assigned. */
  assigned: count,
  /** Primary reviews submitted. */
  submitted: count,
  /** Primary reviews not submitted whose due date is before today. */
  overdue: count,
  /** Second reviews that disagreed and wait for adjudication (their cases are in no rate yet). */
  awaiting_adjudication: count,
  /** Cases whose result counts (submitted, not waiting for adjudication). */
  counted: count,
});
export type CrDashboardKpis = z.infer<typeof crDashboardKpisSchema>;

export const crQuestionRateSchema = crRateSchema.extend({
  key: z.string(),
  /** The wording of the latest version that holds the key. */
  text: z.string(),
  critical: z.boolean(),
  below_target: z.boolean(),
});
export type CrQuestionRate = z.infer<typeof crQuestionRateSchema>;

export const crHeatCellSchema = z.object({ unit: z.string(), rate: z.number().nullable(), n: count });
export const crHeatRowSchema = z.object({ key: z.string(), text: z.string(), cells: z.array(crHeatCellSchema) });
export type CrHeatRow = z.infer<typeof crHeatRowSchema>;

/** A point of the compliance P chart, as the shared SPC engine computed it (value and lines are shares). */
export const crTrendPointSchema = z.object({
  period: z.string(),
  label: z.string(),
  /** Items met (Partial 0.5 when enabled). */
  numerator: z.number().nullable(),
  /** Applicable items. */
  denominator: z.number().nullable(),
  /** Counted cases of the period. */
  cases: count,
  value: z.number().nullable(),
  gap: z.string().nullable(),
  phase: z.number().int(),
  cl: z.number().nullable(),
  ucl: z.number().nullable(),
  lcl: z.number().nullable(),
  ucl2: z.number().nullable(),
  lcl2: z.number().nullable(),
  ucl1: z.number().nullable(),
  lcl1: z.number().nullable(),
  signals: z.array(z.enum(SPC_RULES)),
  variation: z.enum(['improvement', 'concern', 'common', 'neutral']),
});
export type CrTrendPoint = z.infer<typeof crTrendPointSchema>;

export const crTrendSchema = z.object({
  chart: z.literal('p'),
  rule_profile: z.literal('anhoej'),
  grain: z.enum(CR_GRAINS),
  points: z.array(crTrendPointSchema),
  summary: z.object({
    variation: z.enum(['improvement', 'concern', 'common', 'neutral']).nullable(),
    assurance: z.enum(['pass', 'fail', 'hit_and_miss']).nullable(),
    trial: z.boolean(),
    baseline_points: count,
    useful_points: count,
    longest_run: count.nullable(),
    crossings: count.nullable(),
    run_limit: count.nullable(),
    crossing_limit: count.nullable(),
  }),
});
export type CrTrend = z.infer<typeof crTrendSchema>;

export const crReliabilitySummarySchema = z.object({
  /** Second reviews compared with their primary review (agreed, disagreed or adjudicated). */
  pairs: count,
  /** Items compared (both reviewers answered). */
  items: count,
  agreement: z.number().nullable(),
  kappa: z.number().nullable(),
  pabak: z.number().nullable(),
  /** Agreement and kappa at or above the project's thresholds; false without pairs. */
  meets_thresholds: z.boolean(),
  /** Question keys whose kappa is below 0.70. */
  flagged: z.array(z.string()),
  thresholds: z.object({ kappa_min: z.number(), agreement_min: z.number() }),
});
export type CrReliabilitySummary = z.infer<typeof crReliabilitySummarySchema>;

export const crFindingCountsSchema = z.object({ open: count, action_plan: count, closed: count });
export type CrFindingCounts = z.infer<typeof crFindingCountsSchema>;

/** GET /programs/{id}/dashboard?period= */
export const crDashboardSchema = z.object({
  program: z.object({
    id,
    name: z.string(),
    grain: z.enum(CR_GRAINS),
    status: z.enum(CR_PROGRAM_STATUSES),
    units: z.array(z.string()),
    target: z.number(),
  }),
  /** The period shown; null when the programme has no sample yet. */
  period: crPeriodSchema.nullable(),
  /** Periods with a sample, newest first. */
  periods: z.array(crPeriodSchema),
  privilege_label: z.string(),
  partial_enabled: z.boolean(),
  kpis: crDashboardKpisSchema,
  /** Applicable items met over every counted case of the period (n = applicable items). */
  compliance: crRateSchema,
  /** null when there is no rate yet. */
  meets_target: z.boolean().nullable(),
  /** Cases meeting every applicable critical item (n = cases where a critical item applied). */
  all_or_none: crRateSchema,
  /** Mean weighted case score (n = cases with a score). */
  mean_score: z.object({ mean: z.number().nullable(), n: count }),
  questions: z.array(crQuestionRateSchema),
  /** The units of the heat map's columns, in the programme's order (then any other unit found in results). */
  units: z.array(z.string()),
  heat_map: z.array(crHeatRowSchema),
  trend: crTrendSchema,
  reliability: crReliabilitySummarySchema,
  /** The programme's findings (every period) by status. */
  findings: crFindingCountsSchema,
  abilities: z.object({ findings: z.boolean(), irr: z.boolean() }),
});
export type CrDashboard = z.infer<typeof crDashboardSchema>;

// ------------------------------------------------------------------------------------------------ compliance

export const CR_COMPLIANCE_GROUPINGS = ['question', 'unit', 'reviewer'] as const;
export type CrComplianceGrouping = (typeof CR_COMPLIANCE_GROUPINGS)[number];

/** from / to: periods (any day of them), both optional and inclusive. */
export const crRangeQuerySchema = z
  .object({ from: day('start of the range').optional(), to: day('end of the range').optional() })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    path: ['to'],
    message: 'The end of the range is on or after its start.',
  });
export type CrRangeQuery = z.infer<typeof crRangeQuerySchema>;

export const crComplianceQuerySchema = z
  .object({
    by: z.enum(CR_COMPLIANCE_GROUPINGS, { error: 'Group by question, unit or reviewer.' }),
    from: day('start of the range').optional(),
    to: day('end of the range').optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    path: ['to'],
    message: 'The end of the range is on or after its start.',
  });
export type CrComplianceQuery = z.infer<typeof crComplianceQuerySchema>;

export const crComplianceGroupSchema = crRateSchema.extend({
  /** The question key, the unit ('' for no unit) or the reviewer's id. */
  key: z.string(),
  label: z.string(),
  /** Counted cases in the group. */
  cases: count,
});
export type CrComplianceGroup = z.infer<typeof crComplianceGroupSchema>;

/** GET /programs/{id}/compliance?by=&from=&to= */
export const crComplianceSchema = z.object({
  by: z.enum(CR_COMPLIANCE_GROUPINGS),
  /** The periods the figures cover (first and last with a counted case), null when there is none. */
  from: z.string().nullable(),
  to: z.string().nullable(),
  groups: z.array(crComplianceGroupSchema),
});
export type CrCompliance = z.infer<typeof crComplianceSchema>;

// ------------------------------------------------------------------------------------------------ landing

export const crDashboardProgramSchema = z.object({
  id,
  name: z.string(),
  status: z.enum(CR_PROGRAM_STATUSES),
  grain: z.enum(CR_GRAINS),
  target: z.number(),
  /** The latest period with a sample; null before the first. */
  period: crPeriodSchema.nullable(),
  compliance: crRateSchema,
  meets_target: z.boolean().nullable(),
  all_or_none: crRateSchema,
  sampled: count,
  submitted: count,
  overdue: count,
  /** Findings not closed yet (open or with an action plan), every period. */
  open_findings: count,
});
export type CrDashboardProgram = z.infer<typeof crDashboardProgramSchema>;

/** GET /dashboard */
export const crDashboardListSchema = z.object({ programs: z.array(crDashboardProgramSchema) });
export type CrDashboardList = z.infer<typeof crDashboardListSchema>;
