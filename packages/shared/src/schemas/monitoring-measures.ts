import { z } from 'zod';
import {
  ASTRONOMICAL_POINT_CRITERIA,
  IHI_RUNS_TESTS,
  SPC_CHARTS,
  SPC_RULE_SETS,
  SPC_RULES,
} from '../monitoring/spc/types.js';
import {
  ANNOTATION_KINDS,
  BENCHMARK_STATISTICS,
  IMPROVEMENT_DIRECTIONS,
  MEASURE_TYPES,
  PERIOD_GRAINS,
  PHASE_REASONS,
  TARGET_KINDS,
} from '../monitoring/vocabulary.js';
import { INT4_MAX, recordId } from './common.js';

/**
 * Contracts of monitoring measures, formulas, series and charts (issue 9; decision record 010; DOMAIN.md 1.1-1.3,
 * 1.8-1.10). Calls under /api/projects/{id}/monitoring; docs/monitoring.md "Measures, series and charts" lists them.
 * Dates are ISO 'YYYY-MM-DD' (periods are keyed by their first day), times ISO strings.
 */

const id = z.number().int();
const ref = z.object({ id, name: z.string() });
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-03-31.');
const finite = (label: string) => z.number({ error: `Enter a number for ${label}.` }).finite();

/** Shown (409) when the version an edit started from is no longer the current one. */
export const STALE_MEASURE_MESSAGE = 'This measure was changed by someone else. Reload it to see their changes.';
export const STALE_CHART_MESSAGE = 'This chart was changed by someone else. Reload it to see their changes.';

export const measureDefinitionSchema = z.object({
  description: z.string().max(5_000, 'At most 5,000 characters.').default(''),
  inclusions: z.string().max(5_000, 'At most 5,000 characters.').default(''),
  exclusions: z.string().max(5_000, 'At most 5,000 characters.').default(''),
  data_source: z.string().max(1_000, 'At most 1,000 characters.').default(''),
  owner: z.string().max(200, 'At most 200 characters.').default(''),
  collection_plan: z.string().max(5_000, 'At most 5,000 characters.').default(''),
});
export type MeasureDefinition = z.infer<typeof measureDefinitionSchema>;

export const targetSchema = z.object({
  id,
  value: z.number(),
  effective_from: z.string(),
  kind: z.enum(TARGET_KINDS),
});
export type Target = z.infer<typeof targetSchema>;

export const benchmarkSchema = z.object({
  id,
  source: z.string(),
  statistic: z.enum(BENCHMARK_STATISTICS),
  percentile: z.number().int().nullable(),
  value: z.number(),
  period_label: z.string(),
  as_of: z.string(),
  /** The benchmark measures the same thing the same way (otherwise it is shown, marked "not comparable"). */
  spec_match: z.boolean(),
  citation_url: z.string(),
  note: z.string(),
});
export type Benchmark = z.infer<typeof benchmarkSchema>;

export const phaseSchema = z.object({
  id,
  start_period: z.string(),
  label: z.string(),
  reason: z.enum(PHASE_REASONS),
});
export type Phase = z.infer<typeof phaseSchema>;

export const annotationSchema = z.object({
  id,
  period_start: z.string(),
  kind: z.enum(ANNOTATION_KINDS),
  text: z.string(),
  exclude_from_limits: z.boolean(),
});
export type Annotation = z.infer<typeof annotationSchema>;

export const measureSchema = z.object({
  id,
  page_id: id,
  name: z.string(),
  type: z.enum(MEASURE_TYPES),
  dataset: ref.nullable(),
  numerator: z.string(),
  denominator: z.string(),
  value_expr: z.string(),
  multiplier: z.number(),
  unit_label: z.string(),
  direction: z.enum(IMPROVEMENT_DIRECTIONS),
  grain: z.enum(PERIOD_GRAINS),
  strata_keys: z.array(z.string()),
  definition: measureDefinitionSchema,
  chart_default: z.enum(SPC_CHARTS),
  rule_profile: z.enum(SPC_RULE_SETS),
  /** Options of the ihi_run rules (docs/monitoring.md "Rules as published"). */
  ihi_runs_test: z.enum(IHI_RUNS_TESTS),
  astronomical_point: z.enum(ASTRONOMICAL_POINT_CRITERIA),
  baseline_from: z.string().nullable(),
  baseline_to: z.string().nullable(),
  formula_version: z.number().int(),
  formula_hash: z.string().nullable(),
  version: z.number().int(),
  targets: z.array(targetSchema),
  benchmarks: z.array(benchmarkSchema),
  phases: z.array(phaseSchema),
  annotations: z.array(annotationSchema),
  updated_at: z.string(),
});
export type Measure = z.infer<typeof measureSchema>;

/** GET /pages/{pageId}/measures. `edit`: may add and change measures here (formula-builder section + page edit). */
export const measureListSchema = z.object({
  measures: z.array(measureSchema),
  abilities: z.object({ edit: z.boolean() }),
});
export type MeasureList = z.infer<typeof measureListSchema>;

/** GET /measures/{id}. */
export const measureDetailSchema = measureSchema.extend({
  page: z.object({ id, number: z.string().nullable(), title: z.string() }),
  abilities: z.object({ edit: z.boolean() }),
});
export type MeasureDetail = z.infer<typeof measureDetailSchema>;

const expression = z.string().max(500, 'A formula is at most 500 characters.');

const measureFields = {
  name: z.string().trim().min(1, 'Enter a name.').max(200, 'A name is at most 200 characters.'),
  type: z.enum(MEASURE_TYPES),
  dataset_id: recordId.nullable(),
  numerator: expression,
  denominator: expression,
  value_expr: expression,
  multiplier: finite('the multiplier').positive('The multiplier is above 0.').max(1_000_000_000),
  unit_label: z.string().trim().max(60, 'A unit is at most 60 characters.'),
  direction: z.enum(IMPROVEMENT_DIRECTIONS),
  grain: z.enum(PERIOD_GRAINS),
  strata_keys: z.array(z.string().regex(/^[a-z][a-z0-9_]{0,62}$/)).max(3, 'Use at most 3 strata.'),
  definition: measureDefinitionSchema,
  chart_default: z.enum(SPC_CHARTS),
  rule_profile: z.enum(SPC_RULE_SETS),
  ihi_runs_test: z.enum(IHI_RUNS_TESTS, { error: 'Choose how the number of runs is judged.' }),
  astronomical_point: z.enum(ASTRONOMICAL_POINT_CRITERIA, { error: 'Choose whether to flag an astronomical point.' }),
  baseline_from: isoDate.nullable(),
  baseline_to: isoDate.nullable(),
};

/**
 * POST /pages/{pageId}/measures. The formulas are checked against the dataset's columns (400 with the errors of
 * each formula: details.formulas = {numerator|denominator|value_expr: [{start, end, message}]}).
 */
export const measureCreateSchema = z
  .object({
    ...measureFields,
    numerator: measureFields.numerator.default(''),
    denominator: measureFields.denominator.default(''),
    value_expr: measureFields.value_expr.default(''),
    multiplier: measureFields.multiplier.default(1),
    unit_label: measureFields.unit_label.default(''),
    direction: measureFields.direction.default('neutral'),
    grain: measureFields.grain.default('month'),
    strata_keys: measureFields.strata_keys.default([]),
    definition: measureDefinitionSchema.default({
      description: '',
      inclusions: '',
      exclusions: '',
      data_source: '',
      owner: '',
      collection_plan: '',
    }),
    rule_profile: measureFields.rule_profile.default('anhoej'),
    ihi_runs_test: measureFields.ihi_runs_test.default('swed_eisenhart'),
    astronomical_point: measureFields.astronomical_point.default('i_chart'),
    baseline_from: measureFields.baseline_from.default(null),
    baseline_to: measureFields.baseline_to.default(null),
  })
  .strict();
export type MeasureCreate = z.input<typeof measureCreateSchema>;

/**
 * PUT /measures/{id}: the fields to change and the version the edit started from (409 when stale). A change of
 * dataset or formulas records a formula version (with `formula_note`); `phase_start` also starts a phase there.
 */
export const measureUpdateSchema = z
  .object(measureFields)
  .partial()
  .extend({
    version: id.positive().max(INT4_MAX, 'No such version.'),
    formula_note: z.string().trim().max(500, 'A note is at most 500 characters.').optional(),
    phase_start: isoDate.nullable().optional(),
  })
  .strict();
export type MeasureUpdate = z.infer<typeof measureUpdateSchema>;

/** GET /measures/{id}/formula-versions: newest first. */
export const formulaVersionSchema = z.object({
  version: z.number().int(),
  dataset: ref.nullable(),
  numerator: z.string(),
  denominator: z.string(),
  value_expr: z.string(),
  hash: z.string(),
  note: z.string(),
  phase_start: z.string().nullable(),
  created_at: z.string(),
  created_by: ref.nullable(),
});
export type FormulaVersion = z.infer<typeof formulaVersionSchema>;
export const formulaVersionListSchema = z.object({ versions: z.array(formulaVersionSchema) });
export type FormulaVersionList = z.infer<typeof formulaVersionListSchema>;

export const expressionErrorSchema = z.object({ start: z.number().int(), end: z.number().int(), message: z.string() });

/** POST /formulas/validate: one expression against a dataset's columns, with a per-period preview. */
export const formulaValidateSchema = z
  .object({
    dataset_id: recordId,
    /** 'row' is a derived column (no aggregates); the others are period expressions. */
    role: z.enum(['numerator', 'denominator', 'value', 'row']),
    expression,
    grain: z.enum(PERIOD_GRAINS).default('month'),
  })
  .strict();
export type FormulaValidate = z.input<typeof formulaValidateSchema>;
export const formulaValidationSchema = z.object({
  ok: z.boolean(),
  errors: z.array(expressionErrorSchema),
  /** Column keys the expression reads. */
  columns: z.array(z.string()),
  /** The formula in words (null when it does not parse). */
  explanation: z.string().nullable(),
  /** The latest periods (at most 12) evaluated on the current rows. */
  preview: z.array(z.object({ period: z.string(), value: z.number().nullable(), rows: z.number().int() })),
});
export type FormulaValidation = z.infer<typeof formulaValidationSchema>;

/** POST /formulas/preview: a whole (unsaved) measure on current data, per period, with its SPC reading. */
export const formulaPreviewSchema = z
  .object({
    dataset_id: recordId,
    type: z.enum(MEASURE_TYPES),
    numerator: expression.default(''),
    denominator: expression.default(''),
    value_expr: expression.default(''),
    multiplier: measureFields.multiplier.default(1),
    grain: z.enum(PERIOD_GRAINS).default('month'),
  })
  .strict();
export type FormulaPreview = z.input<typeof formulaPreviewSchema>;

export const seriesPointSchema = z.object({
  period: z.string(),
  label: z.string(),
  /** Rows of the dataset in the period. */
  rows: z.number().int(),
  numerator: z.number().nullable(),
  denominator: z.number().nullable(),
  /** Shown value (times the multiplier); the lines below are on the same scale. */
  value: z.number().nullable(),
  gap: z.string().nullable(),
  excluded: z.boolean(),
  /** The current, not yet complete period: drawn hollow, left out of limits and rules. */
  provisional: z.boolean(),
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
  target: z.number().nullable(),
});
export type SeriesPoint = z.infer<typeof seriesPointSchema>;

export const seriesSummarySchema = z.object({
  variation: z.enum(['improvement', 'concern', 'common', 'neutral']).nullable(),
  assurance: z.enum(['pass', 'fail', 'hit_and_miss']).nullable(),
  trial: z.boolean(),
  baseline_points: z.number().int(),
  useful_points: z.number().int(),
  longest_run: z.number().int().nullable(),
  crossings: z.number().int().nullable(),
  run_limit: z.number().int().nullable(),
  crossing_limit: z.number().int().nullable(),
});

/** GET /measures/{id}/series?chart=&stratum=&from=&to=, and the answer of POST /formulas/preview. */
export const seriesSchema = z.object({
  measure_id: id.nullable(),
  chart: z.enum(SPC_CHARTS),
  rule_profile: z.enum(SPC_RULE_SETS),
  grain: z.enum(PERIOD_GRAINS),
  unit_label: z.string(),
  multiplier: z.number(),
  direction: z.enum(IMPROVEMENT_DIRECTIONS),
  stratum: z.string().nullable(),
  /** Values of the measure's strata found in the data (for the stratum picker). */
  strata: z.array(z.string()),
  points: z.array(seriesPointSchema),
  summary: seriesSummarySchema,
  benchmarks: z.array(benchmarkSchema),
  annotations: z.array(annotationSchema),
  phases: z.array(phaseSchema),
  /** Provenance: which definition and which data the points came from. */
  formula_version: z.number().int(),
  formula_hash: z.string().nullable(),
  dataset_version: z.number().int(),
  computed_at: z.string(),
  compute_ms: z.number().int(),
  /** Why there are no points (no dataset, no formula, no rows), in words; null when there are points. */
  empty_reason: z.string().nullable(),
});
export type Series = z.infer<typeof seriesSchema>;

/** GET /pages/{pageId}/measure-summary: one line per measure for the page view. */
export const measureSummarySchema = z.object({
  measure_id: id,
  name: z.string(),
  type: z.enum(MEASURE_TYPES),
  unit_label: z.string(),
  direction: z.enum(IMPROVEMENT_DIRECTIONS),
  latest: z
    .object({
      period: z.string(),
      label: z.string(),
      value: z.number().nullable(),
      numerator: z.number().nullable(),
      denominator: z.number().nullable(),
      rows: z.number().int(),
    })
    .nullable(),
  target: z.object({ value: z.number(), kind: z.enum(TARGET_KINDS) }).nullable(),
  benchmark: benchmarkSchema.nullable(),
  variation: z.enum(['improvement', 'concern', 'common', 'neutral']).nullable(),
  assurance: z.enum(['pass', 'fail', 'hit_and_miss']).nullable(),
  trial: z.boolean(),
  /** Rules that fired on the latest phase's points. */
  signals: z.array(z.enum(SPC_RULES)),
  /** The last 24 values (null for gaps), oldest first. */
  sparkline: z.array(z.number().nullable()),
  definition: measureDefinitionSchema,
  /** The formulas in words. */
  explanation: z.string(),
});
export type MeasureSummary = z.infer<typeof measureSummarySchema>;
export const measureSummaryListSchema = z.object({ measures: z.array(measureSummarySchema) });
export type MeasureSummaryList = z.infer<typeof measureSummaryListSchema>;

/** POST /measures/{id}/targets. */
export const targetCreateSchema = z
  .object({
    value: finite('the target'),
    effective_from: isoDate,
    kind: z.enum(TARGET_KINDS).default('target'),
  })
  .strict();
export type TargetCreate = z.input<typeof targetCreateSchema>;

/** POST /measures/{id}/benchmarks, PUT /measures/{id}/benchmarks/{benchmarkId}. */
export const benchmarkInputSchema = z
  .object({
    source: z.string().trim().min(1, 'Enter the source (e.g. CMS Care Compare, NHSN).').max(200),
    statistic: z.enum(BENCHMARK_STATISTICS),
    percentile: z.number().int().min(1).max(99).nullable().default(null),
    value: finite('the benchmark'),
    period_label: z.string().trim().max(60).default(''),
    as_of: isoDate,
    spec_match: z.boolean().default(true),
    citation_url: z
      .string()
      .trim()
      .max(2_000)
      .refine((v) => v === '' || /^https?:\/\//.test(v), 'A link starts with http:// or https://.')
      .default(''),
    note: z.string().trim().max(2_000).default(''),
  })
  .strict()
  .refine((b) => b.statistic !== 'percentile' || b.percentile !== null, {
    message: 'Enter the percentile (1 to 99).',
    path: ['percentile'],
  });
export type BenchmarkInput = z.input<typeof benchmarkInputSchema>;

/** POST /measures/{id}/phases. */
export const phaseCreateSchema = z
  .object({
    start_period: isoDate,
    label: z.string().trim().min(1, 'Enter a label.').max(120),
    reason: z.enum(PHASE_REASONS).default('other'),
  })
  .strict();
export type PhaseCreate = z.input<typeof phaseCreateSchema>;

/** POST /measures/{id}/annotations, PUT /measures/{id}/annotations/{annotationId}. */
export const annotationInputSchema = z
  .object({
    period_start: isoDate,
    kind: z.enum(ANNOTATION_KINDS).default('event'),
    text: z.string().trim().min(1, 'Enter the note.').max(1_000, 'A note is at most 1,000 characters.'),
    exclude_from_limits: z.boolean().default(false),
  })
  .strict();
export type AnnotationInput = z.input<typeof annotationInputSchema>;

export const chartOptionsSchema = z
  .object({
    /** A value of the measure's first stratum column; null = all rows. */
    stratum: z.string().max(200).nullable().default(null),
    from: isoDate.nullable().default(null),
    to: isoDate.nullable().default(null),
    /** Extra sigma lines to draw (the 3 sigma limits are always drawn on control charts). */
    sigma_lines: z.array(z.union([z.literal(1), z.literal(2)])).default([]),
    show_target: z.boolean().default(true),
    show_benchmark: z.boolean().default(true),
    show_annotations: z.boolean().default(true),
    /** null = the measure's rule profile. */
    rule_profile: z.enum(SPC_RULE_SETS).nullable().default(null),
  })
  .strict();
export type ChartOptions = z.infer<typeof chartOptionsSchema>;

export const chartSchema = z.object({
  id,
  page_id: id,
  measure: z.object({ id, name: z.string(), type: z.enum(MEASURE_TYPES) }),
  title: z.string(),
  chart_type: z.enum(SPC_CHARTS),
  options: chartOptionsSchema,
  position: z.number().int(),
  version: z.number().int(),
  updated_at: z.string(),
});
export type Chart = z.infer<typeof chartSchema>;

/** GET /pages/{pageId}/charts. `edit`: may add, change and remove charts here (page-charts section + edit). */
export const chartListSchema = z.object({ charts: z.array(chartSchema), abilities: z.object({ edit: z.boolean() }) });
export type ChartList = z.infer<typeof chartListSchema>;

/** POST /pages/{pageId}/charts. */
export const chartCreateSchema = z
  .object({
    measure_id: recordId,
    title: z.string().trim().min(1, 'Enter a title.').max(200, 'A title is at most 200 characters.'),
    chart_type: z.enum(SPC_CHARTS),
    options: chartOptionsSchema.default({
      stratum: null,
      from: null,
      to: null,
      sigma_lines: [],
      show_target: true,
      show_benchmark: true,
      show_annotations: true,
      rule_profile: null,
    }),
  })
  .strict();
export type ChartCreate = z.input<typeof chartCreateSchema>;

/** PUT /charts/{chartId}. `position` moves it among the page's charts. */
export const chartUpdateSchema = z
  .object({
    version: id.positive().max(INT4_MAX, 'No such version.'),
    measure_id: recordId.optional(),
    title: chartCreateSchema.shape.title.optional(),
    chart_type: z.enum(SPC_CHARTS).optional(),
    options: chartOptionsSchema.optional(),
    position: z.number().int().min(0).max(INT4_MAX, 'The position is out of range.').optional(),
  })
  .strict();
export type ChartUpdate = z.infer<typeof chartUpdateSchema>;

/** POST /pages/{pageId}/insights/draft: a key-insight draft written from the detected signals (never saved). */
export const insightDraftSchema = z.object({ title: z.string(), body: z.string() });
export type InsightDraft = z.infer<typeof insightDraftSchema>;
