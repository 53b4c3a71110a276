import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, project, ref, updatedAt, userRef } from './columns.js';
import { monPages } from './monitoring.js';

/**
 * Monitoring, part 2 (issue 9; decision record 010): datasets and their CSV imports, measures with versioned
 * formulas, targets, benchmarks, phases and annotations, the computed series cache and the charts of pages.
 * Every table carries project_id; every query filters on it.
 */

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A table of rows imported from CSV files. `columns` is [{key, label, type, phi}] (DatasetColumn); `version` goes up
 * with every committed or rolled back import, so cached series know when they are stale.
 */
export const monDatasets = pgTable(
  'mon_datasets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Key of the date column that places each row in a period. */
    timeColumn: text('time_column'),
    columns: jsonb('columns').notNull().default(sql`'[]'::jsonb`),
    /** Set by a monitoring admin: allows columns that look like patient identifiers. */
    patientLevel: boolean('patient_level').notNull().default(false),
    retentionMonths: integer('retention_months'),
    version: integer('version').notNull().default(0),
    /** Active rows (kept with each commit and roll back). */
    rowCount: integer('row_count').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    uniqueIndex('mon_datasets_name_unique').on(t.projectId, sql`lower(${t.name})`).where(sql`${t.deletedAt} is null`),
  ],
);

/** One upload of a CSV file into a dataset, from upload to commit (or failure) and possibly roll back. */
export const monImports = pgTable(
  'mon_imports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    datasetId: ref('dataset_id', () => monDatasets.id, 'restrict'),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    status: text('status').notNull().default('uploaded'),
    /** What the server found: delimiter, encoding, header, date format (and whether it was ambiguous), sample. */
    detected: jsonb('detected').notNull().default(sql`'{}'::jsonb`),
    /** The person's choices: column mapping and types, time column, date format, delimiter, encoding. */
    settings: jsonb('settings'),
    mode: text('mode').notNull().default('append'),
    errorPolicy: text('error_policy').notNull().default('abort'),
    rangeFrom: date('range_from'),
    rangeTo: date('range_to'),
    keyColumns: text('key_columns').array().notNull().default(sql`'{}'::text[]`),
    rowsTotal: integer('rows_total').notNull().default(0),
    rowsOk: integer('rows_ok').notNull().default(0),
    rowsErr: integer('rows_err').notNull().default(0),
    /** Active rows this import replaced (replace range, update by key); a roll back restores them. */
    rowsReplaced: integer('rows_replaced').notNull().default(0),
    /** The first 1,000 row errors: [{line, column, value, reason}]. */
    errors: jsonb('errors').notNull().default(sql`'[]'::jsonb`),
    /** Why a commit failed, in words for the person. */
    message: text('message'),
    /** Rows read so far while committing (written outside the commit's transaction, for the progress bar). */
    progress: integer('progress').notNull().default(0),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    committedAt: timestamp('committed_at', { withTimezone: true }),
    committedBy: userRef('committed_by'),
    rolledBackAt: timestamp('rolled_back_at', { withTimezone: true }),
    rolledBackBy: userRef('rolled_back_by'),
  },
  (t) => [
    index('mon_imports_dataset_idx').on(t.projectId, t.datasetId),
    check(
      'mon_imports_status_check',
      sql`${t.status} in ('uploaded', 'committing', 'committed', 'failed', 'rolled_back')`,
    ),
    check('mon_imports_mode_check', sql`${t.mode} in ('append', 'replace_range', 'upsert')`),
    check('mon_imports_error_policy_check', sql`${t.errorPolicy} in ('abort', 'skip')`),
  ],
);

/** The uploaded file in 1 MB pieces: neither the upload nor the commit ever holds a whole file in memory. */
export const monImportChunks = pgTable(
  'mon_import_chunks',
  {
    projectId: project(),
    importId: ref('import_id', () => monImports.id, 'cascade'),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.seq] })],
);

/** The rows of datasets. A replaced or rolled back row stays, inactive, so a roll back can restore it. */
export const monRows = pgTable(
  'mon_rows',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    datasetId: ref('dataset_id', () => monDatasets.id, 'restrict'),
    importId: ref('import_id', () => monImports.id, 'restrict'),
    /** Line of the file the row came from (for error reports and provenance). */
    rowNo: integer('row_no').notNull(),
    /** The row's date (time column); periods are derived from it by the measure's grain. */
    rowDate: date('row_date').notNull(),
    data: jsonb('data').notNull(),
    active: boolean('active').notNull().default(true),
    /** The import that replaced this row (replace range, update by key). */
    replacedBy: integer('replaced_by').references(() => monImports.id, { onDelete: 'restrict' }),
  },
  (t) => [
    index('mon_rows_dataset_date_idx').on(t.datasetId, t.rowDate, t.id).where(sql`${t.active}`),
    index('mon_rows_import_idx').on(t.importId),
    index('mon_rows_replaced_idx').on(t.replacedBy).where(sql`${t.replacedBy} is not null`),
  ],
);

/**
 * A measure on a page: what is counted (formulas over a dataset), how it is read (type, multiplier, unit, direction,
 * grain, chart, rules, baseline) and its operational definition. `formula_version` counts formula changes
 * (mon_formula_versions keeps each).
 */
export const monMeasures = pgTable(
  'mon_measures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    pageId: ref('page_id', () => monPages.id, 'restrict'),
    datasetId: integer('dataset_id').references(() => monDatasets.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    numerator: text('numerator').notNull().default(''),
    denominator: text('denominator').notNull().default(''),
    valueExpr: text('value_expr').notNull().default(''),
    multiplier: doublePrecision('multiplier').notNull().default(1),
    unitLabel: text('unit_label').notNull().default(''),
    direction: text('direction').notNull().default('neutral'),
    grain: text('grain').notNull().default('month'),
    strataKeys: text('strata_keys').array().notNull().default(sql`'{}'::text[]`),
    /** {description, inclusions, exclusions, data_source, owner, collection_plan}. */
    definition: jsonb('definition').notNull().default(sql`'{}'::jsonb`),
    chartDefault: text('chart_default').notNull().default('run'),
    ruleProfile: text('rule_profile').notNull().default('anhoej'),
    /** ihi_run options (docs/monitoring.md "Rules as published"): how runs are judged, the astronomical point. */
    ihiRunsTest: text('ihi_runs_test').notNull().default('swed_eisenhart'),
    astronomicalPoint: text('astronomical_point').notNull().default('i_chart'),
    baselineFrom: date('baseline_from'),
    baselineTo: date('baseline_to'),
    formulaVersion: integer('formula_version').notNull().default(0),
    formulaHash: text('formula_hash'),
    position: integer('position').notNull().default(0),
    version: integer('version').notNull().default(1),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [
    index('mon_measures_page_idx').on(t.projectId, t.pageId),
    index('mon_measures_dataset_idx').on(t.datasetId),
    check(
      'mon_measures_type_check',
      sql`${t.type} in ('proportion', 'rate', 'ratio', 'continuous', 'count', 'time_between')`,
    ),
    check('mon_measures_direction_check', sql`${t.direction} in ('up', 'down', 'neutral')`),
    check('mon_measures_grain_check', sql`${t.grain} in ('week', 'month', 'quarter', 'year')`),
    check('mon_measures_ihi_runs_test_check', sql`${t.ihiRunsTest} in ('swed_eisenhart', 'anhoej_crossings')`),
    check('mon_measures_astronomical_point_check', sql`${t.astronomicalPoint} in ('i_chart', 'off')`),
  ],
);

/** Every formula a measure has had: a changed definition never silently rewrites history. */
export const monFormulaVersions = pgTable(
  'mon_formula_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    measureId: ref('measure_id', () => monMeasures.id, 'restrict'),
    version: integer('version').notNull(),
    datasetId: integer('dataset_id').references(() => monDatasets.id, { onDelete: 'restrict' }),
    numerator: text('numerator').notNull().default(''),
    denominator: text('denominator').notNull().default(''),
    valueExpr: text('value_expr').notNull().default(''),
    hash: text('hash').notNull(),
    columns: text('columns').array().notNull().default(sql`'{}'::text[]`),
    note: text('note').notNull().default(''),
    /** The period a phase was started at because of this change (null: none). */
    phaseStart: date('phase_start'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [uniqueIndex('mon_formula_versions_unique').on(t.measureId, t.version)],
);

/** Targets of a measure, each from a period on. */
export const monTargets = pgTable(
  'mon_targets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    measureId: ref('measure_id', () => monMeasures.id, 'restrict'),
    value: doublePrecision('value').notNull(),
    effectiveFrom: date('effective_from').notNull(),
    kind: text('kind').notNull().default('target'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    index('mon_targets_measure_idx').on(t.measureId),
    check('mon_targets_kind_check', sql`${t.kind} in ('target', 'threshold', 'stretch')`),
  ],
);

/** External comparisons (CMS, NHSN, state, network, internal) with what they are and whether they compare. */
export const monBenchmarks = pgTable(
  'mon_benchmarks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    measureId: ref('measure_id', () => monMeasures.id, 'restrict'),
    source: text('source').notNull(),
    statistic: text('statistic').notNull(),
    percentile: integer('percentile'),
    value: doublePrecision('value').notNull(),
    periodLabel: text('period_label').notNull().default(''),
    asOf: date('as_of').notNull(),
    specMatch: boolean('spec_match').notNull().default(true),
    citationUrl: text('citation_url').notNull().default(''),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    index('mon_benchmarks_measure_idx').on(t.measureId),
    check('mon_benchmarks_statistic_check', sql`${t.statistic} in ('percentile', 'mean', 'median', 'sir')`),
  ],
);

/** Phase breaks: the centre line and limits are recomputed from each phase's start. */
export const monPhases = pgTable(
  'mon_phases',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    measureId: ref('measure_id', () => monMeasures.id, 'restrict'),
    startPeriod: date('start_period').notNull(),
    label: text('label').notNull(),
    reason: text('reason').notNull().default('other'),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    uniqueIndex('mon_phases_start_unique').on(t.measureId, t.startPeriod),
    check(
      'mon_phases_reason_check',
      sql`${t.reason} in ('definition_change', 'sustained_shift', 'intervention', 'other')`,
    ),
  ],
);

/** Notes on periods of a measure's chart; a data-issue note can leave its point out of the limits. */
export const monAnnotations = pgTable(
  'mon_annotations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    measureId: ref('measure_id', () => monMeasures.id, 'restrict'),
    periodStart: date('period_start').notNull(),
    kind: text('kind').notNull().default('event'),
    text: text('text').notNull(),
    excludeFromLimits: boolean('exclude_from_limits').notNull().default(false),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
  },
  (t) => [
    index('mon_annotations_measure_idx').on(t.measureId),
    check('mon_annotations_kind_check', sql`${t.kind} in ('intervention', 'pdsa', 'event', 'data_issue')`),
  ],
);

/**
 * Computed series, per measure and stratum ('' = all rows): points with lines and signals, and the summary. Stale
 * when `input_hash` (formula hash, dataset version, chart settings, phases, annotations) no longer matches.
 */
export const monSeries = pgTable(
  'mon_series',
  {
    projectId: project(),
    measureId: ref('measure_id', () => monMeasures.id, 'cascade'),
    stratum: text('stratum').notNull().default(''),
    chart: text('chart').notNull(),
    inputHash: text('input_hash').notNull(),
    result: jsonb('result').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
    computeMs: integer('compute_ms').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.measureId, t.stratum, t.chart] })],
);

/** A chart on a page: one measure drawn as a run or control chart with its options. */
export const monCharts = pgTable(
  'mon_charts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: project(),
    pageId: ref('page_id', () => monPages.id, 'restrict'),
    measureId: ref('measure_id', () => monMeasures.id, 'restrict'),
    title: text('title').notNull(),
    chartType: text('chart_type').notNull(),
    /** {stratum, from, to, sigma_lines, show_target, show_benchmark, show_annotations, rule_profile}. */
    options: jsonb('options').notNull().default(sql`'{}'::jsonb`),
    position: integer('position').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    createdBy: userRef('created_by'),
    updatedAt: updatedAt(),
    updatedBy: userRef('updated_by'),
  },
  (t) => [index('mon_charts_page_idx').on(t.projectId, t.pageId, t.position)],
);
