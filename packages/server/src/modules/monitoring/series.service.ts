import { createHash } from 'node:crypto';
import {
  type Annotation,
  type AstronomicalPointCriterion,
  type Benchmark,
  type DatasetColumn,
  type IhiRunsTest,
  type ImprovementDirection,
  type MeasureType,
  measureUsesDenominator,
  type PeriodGrain,
  type Phase,
  parseExpression,
  periodStart,
  RULE_LABELS,
  type Series,
  type SpcChart,
  type SpcRuleSet,
  type Target,
} from '@portal/shared';
import { type AnyColumn, and, asc, eq, inArray, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import {
  monAnnotations,
  monBenchmarks,
  monDatasets,
  monMeasures,
  monPhases,
  monSeries,
  monTargets,
} from '../../db/schema/index.js';
import { csvText, safeFileName } from '../../lib/csv.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { evaluateMeasurePeriods } from './measure-values.js';
import { effectivePageAccess } from './page-access.js';
import { buildSeries, chartNeedsDenominator, EMPTY_REASONS } from './series.build.js';

/**
 * Computed series of measures (issue 9; DOMAIN.md 1.9, 1.10), cached in mon_series per (measure, stratum, chart).
 * A cached series is used only while its input_hash matches everything it was computed from (formulas, dataset
 * version, chart settings, rule profile, baseline, phases, annotations, targets, benchmarks and today's period), so
 * a read never shows a stale series: it recomputes when anything changed. Imports and roll backs recompute the
 * overall series of the dataset's measures right away (recomputeDatasetSeries).
 */

/** Above this many active rows a dataset is not computed on request (a clear LIMIT error instead). */
export const MAX_SERIES_ROWS = 2_000_000;
export const SERIES_LIMIT_MESSAGE =
  'This dataset has more than 2,000,000 rows, more than a chart is computed from. Import the rows aggregated per ' +
  'period (for example one row per ward and month), or split the dataset by year.';
export const CHART_NEEDS_DENOMINATOR_MESSAGE =
  'P and U charts need a numerator and a denominator: choose a run, I, C, G or T chart for this measure.';

export type MeasureRow = typeof monMeasures.$inferSelect;

export interface MeasureExtras {
  targets: Target[];
  benchmarks: Benchmark[];
  phases: Phase[];
  annotations: Annotation[];
}

export interface SeriesOptions {
  chart: SpcChart;
  /** '' = all rows. */
  stratum: string;
  ruleProfile: SpcRuleSet;
}

export interface SeriesQuery {
  chart?: SpcChart | undefined;
  stratum?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  rule_profile?: SpcRuleSet | undefined;
}

/** A live measure of the project (404 when missing, deleted or another project's). */
export async function loadMeasure(db: DbOrTx, projectId: number, measureId: number): Promise<MeasureRow> {
  // Every chart of a page asks this: a named statement.
  const [row] = await prepared(db, 'portal_mon_measure', (handle, name) =>
    handle
      .select()
      .from(monMeasures)
      .where(
        and(
          eq(monMeasures.projectId, sql.placeholder('projectId')),
          eq(monMeasures.id, sql.placeholder('measureId')),
          isNull(monMeasures.deletedAt),
        ),
      )
      .prepare(name),
  ).execute({ projectId, measureId });
  if (!row) throw notFound('Measure not found.');
  return row;
}

/** A measure the actor may see: its page must be visible to them (a hidden page's measure is 404 too). */
export async function visibleMeasure(db: DbOrTx, actor: MonitoringActor, measureId: number): Promise<MeasureRow> {
  const row = await loadMeasure(db, actor.projectId, measureId);
  const level = (await effectivePageAccess(db, actor)).get(row.pageId) ?? 'none';
  if (level === 'none') throw notFound('Measure not found.');
  return row;
}

/**
 * Targets, benchmarks, phases and annotations of a measure (`measureId`, a value or a column of an outer query) as
 * one JSON value in the API's shape, each list in its order: they are read with what needs them, in one statement.
 */
export function extrasOf(projectId: number | Placeholder, measureId: SQL | AnyColumn) {
  const list = (table: PgTable, fields: SQL, order: SQL) =>
    sql`(select coalesce(json_agg(json_build_object(${fields}) order by ${order}), '[]') from ${table}
      where project_id = ${projectId} and measure_id = ${measureId})`;
  return sql<MeasureExtras>`json_build_object(
    'targets', ${list(
      monTargets,
      sql`'id', id, 'value', value, 'effective_from', effective_from, 'kind', kind`,
      sql`effective_from, id`,
    )},
    'benchmarks', ${list(
      monBenchmarks,
      sql`'id', id, 'source', source, 'statistic', statistic, 'percentile', percentile, 'value', value,
        'period_label', period_label, 'as_of', as_of, 'spec_match', spec_match, 'citation_url', citation_url,
        'note', note`,
      sql`as_of desc, id`,
    )},
    'phases', ${list(monPhases, sql`'id', id, 'start_period', start_period, 'label', label, 'reason', reason`, sql`start_period, id`)},
    'annotations', ${list(
      monAnnotations,
      sql`'id', id, 'period_start', period_start, 'kind', kind, 'text', text,
        'exclude_from_limits', exclude_from_limits`,
      sql`period_start, id`,
    )})`;
}

/** Targets, benchmarks, phases and annotations of measures of one project, by measure id, in one statement. */
export async function loadMeasureExtras(
  db: DbOrTx,
  projectId: number,
  measureIds: readonly number[],
): Promise<Map<number, MeasureExtras>> {
  const out = new Map<number, MeasureExtras>(
    measureIds.map((id) => [id, { targets: [], benchmarks: [], phases: [], annotations: [] }]),
  );
  if (measureIds.length === 0) return out;
  const rows = await db
    .select({ id: monMeasures.id, extras: extrasOf(projectId, monMeasures.id) })
    .from(monMeasures)
    .where(and(eq(monMeasures.projectId, projectId), inArray(monMeasures.id, [...measureIds])));
  for (const row of rows) out.set(row.id, row.extras);
  return out;
}

interface DatasetInfo {
  id: number;
  version: number;
  rowCount: number;
  columns: DatasetColumn[];
}

/**
 * What a series is computed from besides the measure, in one statement: its live dataset, the cached series of these
 * options, and the measure's extras unless the caller has them.
 */
async function seriesInputs(db: DbOrTx, measure: MeasureRow, options: SeriesOptions, withExtras: boolean) {
  const name = withExtras ? 'portal_mon_series_inputs_extras' : 'portal_mon_series_inputs';
  const [row] = await prepared(db, name, (handle, n) => seriesInputsQuery(handle, withExtras).prepare(n)).execute({
    projectId: measure.projectId,
    datasetId: measure.datasetId,
    measureId: measure.id,
    stratum: options.stratum,
    chart: options.chart,
  });
  return row!;
}

/** seriesInputs' statement, its values left as placeholders. */
function seriesInputsQuery(db: DbOrTx, withExtras: boolean) {
  const projectId = sql.placeholder('projectId');
  const measureId = sql.placeholder('measureId');
  return db
    .select({
      dataset: sql<DatasetInfo | null>`(select json_build_object('id', id, 'version', version, 'rowCount', row_count,
        'columns', columns) from ${monDatasets} where project_id = ${projectId}
        and id = ${sql.placeholder('datasetId')} and deleted_at is null)`,
      cached: sql<{ inputHash: string; result: Series; computedAt: string; computeMs: number } | null>`(select
        json_build_object('inputHash', input_hash, 'result', result, 'computedAt', computed_at,
          'computeMs', compute_ms)
        from ${monSeries} where project_id = ${projectId} and measure_id = ${measureId}
          and stratum = ${sql.placeholder('stratum')} and chart = ${sql.placeholder('chart')})`,
      extras: withExtras ? extrasOf(projectId, sql`${measureId}`) : sql<MeasureExtras | null>`null`,
    })
    .from(sql`(select 1) as one`);
}

/** Whether the measure's formulas are there and read the dataset's columns. */
function formulasComplete(measure: MeasureRow, columns: readonly DatasetColumn[]): boolean {
  const keys = columns.map((c) => c.key);
  const texts = measureUsesDenominator(measure.type as MeasureType)
    ? [measure.numerator, measure.denominator]
    : [measure.valueExpr];
  return texts.every((text) => text.trim() !== '' && parseExpression(text, { columns: keys, level: 'period' }).ok);
}

/** Refuses a P or U chart for a measure without a denominator (400, under `field`). */
export function assertChartFits(type: MeasureType, chart: SpcChart, field = 'chart'): void {
  if (chartNeedsDenominator(chart) && !measureUsesDenominator(type)) {
    throw new AppError('VALIDATION_FAILED', CHART_NEEDS_DENOMINATOR_MESSAGE, {
      [field]: [CHART_NEEDS_DENOMINATOR_MESSAGE],
    });
  }
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The series of a measure for the given chart, stratum and rule profile: from the cache when its inputs are
 * unchanged, else computed (and cached). No access check: callers check the page first.
 */
export async function seriesOfMeasure(
  db: DbOrTx,
  measure: MeasureRow,
  options: SeriesOptions,
  today: Date,
  extras?: MeasureExtras,
): Promise<Series> {
  const projectId = measure.projectId;
  const type = measure.type as MeasureType;
  const grain = measure.grain as PeriodGrain;
  assertChartFits(type, options.chart);
  const strataKey = measure.strataKeys[0] ?? null;
  if (options.stratum !== '' && !strataKey) {
    throw new AppError('VALIDATION_FAILED', 'This measure has no strata.', {
      stratum: ['This measure has no strata.'],
    });
  }
  const inputs = await seriesInputs(db, measure, options, !extras);
  const more = extras ?? inputs.extras!;
  const dataset = inputs.dataset;
  const emptyReason = !dataset
    ? EMPTY_REASONS.noDataset
    : !formulasComplete(measure, dataset.columns)
      ? EMPTY_REASONS.noFormulas
      : null;
  const baseline =
    measure.baselineFrom || measure.baselineTo
      ? { from: measure.baselineFrom ?? '0001-01-01', to: measure.baselineTo ?? '9999-12-31' }
      : null;
  const settings = {
    grain,
    type,
    chart: options.chart,
    ruleProfile: options.ruleProfile,
    ruleOptions: {
      ihiRunsTest: measure.ihiRunsTest as IhiRunsTest,
      astronomicalPoint: measure.astronomicalPoint as AstronomicalPointCriterion,
    },
    direction: measure.direction as ImprovementDirection,
    multiplier: measure.multiplier,
    unitLabel: measure.unitLabel,
    targets: more.targets,
    benchmarks: more.benchmarks,
    annotations: more.annotations,
    phases: more.phases,
    baseline,
    measureId: measure.id,
    formulaVersion: measure.formulaVersion,
    formulaHash: measure.formulaHash,
    datasetVersion: dataset?.version ?? 0,
    stratum: options.stratum === '' ? null : options.stratum,
  };
  const inputHash = createHash('sha256')
    .update(
      JSON.stringify({
        ...settings,
        v: 1,
        datasetId: dataset?.id ?? null,
        formulas: [measure.numerator, measure.denominator, measure.valueExpr],
        strataKey,
        emptyReason,
        todayPeriod: periodStart(isoDay(today), grain),
      }),
    )
    .digest('hex');
  const cached = inputs.cached;
  if (cached && cached.inputHash === inputHash) {
    return {
      ...cached.result,
      computed_at: new Date(cached.computedAt).toISOString(),
      compute_ms: cached.computeMs,
    };
  }

  const started = performance.now();
  let evaluated: Awaited<ReturnType<typeof evaluateMeasurePeriods>> = { periods: [], strata: [] };
  if (dataset && !emptyReason) {
    if (dataset.rowCount > MAX_SERIES_ROWS) throw new AppError('LIMIT', SERIES_LIMIT_MESSAGE);
    evaluated = await evaluateMeasurePeriods(
      db,
      projectId,
      dataset.id,
      {
        numerator: measure.numerator,
        denominator: measure.denominator,
        value_expr: measure.valueExpr,
        usesDenominator: measureUsesDenominator(type),
        grain,
        stratum: strataKey && options.stratum !== '' ? { key: strataKey, value: options.stratum } : null,
      },
      { strataKey },
    );
  }
  const series = buildSeries({ ...settings, periods: evaluated.periods, strata: evaluated.strata, today, emptyReason });
  // The app clock's time of the request that computed it (`today` is that moment, not a calendar day).
  const computedAt = today;
  const computeMs = Math.round(performance.now() - started);
  const result = { ...series, computed_at: computedAt.toISOString(), compute_ms: computeMs };
  await db
    .insert(monSeries)
    .values({
      projectId,
      measureId: measure.id,
      stratum: options.stratum,
      chart: options.chart,
      inputHash,
      result,
      computedAt,
      computeMs,
    })
    .onConflictDoUpdate({
      target: [monSeries.measureId, monSeries.stratum, monSeries.chart],
      set: { inputHash, result, computedAt, computeMs },
    });
  return result;
}

/** Keeps the points from `from`'s period to `to`'s period (the summary stays that of the whole series). */
function clip(series: Series, from: string | undefined, to: string | undefined): Series {
  if (!from && !to) return series;
  const first = from ? periodStart(from, series.grain) : null;
  const last = to ? periodStart(to, series.grain) : null;
  return {
    ...series,
    points: series.points.filter((p) => (!first || p.period >= first) && (!last || p.period <= last)),
  };
}

async function measureSeries(
  db: DbOrTx,
  actor: MonitoringActor,
  measureId: number,
  query: SeriesQuery,
  today: Date,
): Promise<{ measure: MeasureRow; series: Series }> {
  const measure = await visibleMeasure(db, actor, measureId);
  const series = await seriesOfMeasure(
    db,
    measure,
    {
      chart: query.chart ?? (measure.chartDefault as SpcChart),
      stratum: query.stratum ?? '',
      ruleProfile: query.rule_profile ?? (measure.ruleProfile as SpcRuleSet),
    },
    today,
  );
  return { measure, series: clip(series, query.from, query.to) };
}

/** GET /measures/{id}/series: the measure's series for the chart asked for (default: the measure's own). */
export async function getSeries(
  db: DbOrTx,
  actor: MonitoringActor,
  measureId: number,
  query: SeriesQuery,
  today: Date,
): Promise<Series> {
  return (await measureSeries(db, actor, measureId, query, today)).series;
}

/** Strata cells with fewer rows than this export without numerator and denominator (CMS small-cell convention). */
export const SMALL_CELL_ROWS = 11;

export const SERIES_CSV_HEADER = [
  'period',
  'label',
  'rows',
  'numerator',
  'denominator',
  'value',
  'cl',
  'lcl',
  'ucl',
  'signals',
  'variation',
  'target',
] as const;

/**
 * GET /measures/{id}/series.csv: the points of the series as CSV (cells escaped against formula injection by
 * csvText). In a stratum's export, a period with fewer than 11 rows has its numerator and denominator left blank,
 * so small groups of patients cannot be counted from the file.
 */
export async function seriesCsv(
  db: DbOrTx,
  actor: MonitoringActor,
  measureId: number,
  query: SeriesQuery,
  today: Date,
): Promise<{ fileName: string; body: string }> {
  const { measure, series } = await measureSeries(db, actor, measureId, query, today);
  const suppress = measure.strataKeys.length > 0 && (query.stratum ?? '') !== '';
  const rows = series.points.map((p) => {
    const small = suppress && p.rows < SMALL_CELL_ROWS;
    return [
      p.period,
      p.label,
      p.rows,
      small ? null : p.numerator,
      small ? null : p.denominator,
      p.value,
      p.cl,
      p.lcl,
      p.ucl,
      p.signals.map((rule) => RULE_LABELS[rule]).join('; '),
      p.variation,
      p.target,
    ];
  });
  const stratum = series.stratum ? `-${series.stratum}` : '';
  return {
    fileName: safeFileName(`${measure.name}${stratum}-${series.chart}.csv`),
    body: csvText(SERIES_CSV_HEADER, rows),
  };
}

/**
 * Recomputes the overall series (all rows, the measure's own chart) of every live measure on a dataset of the
 * project: called after an import is committed or rolled back. A measure that cannot be computed (too many rows, a
 * chart that does not fit) is skipped here: reading its series gives the reason.
 */
export async function recomputeDatasetSeries(
  db: DbOrTx,
  projectId: number,
  datasetId: number,
  today: Date,
): Promise<void> {
  const measures = await db
    .select()
    .from(monMeasures)
    .where(
      and(eq(monMeasures.projectId, projectId), eq(monMeasures.datasetId, datasetId), isNull(monMeasures.deletedAt)),
    )
    .orderBy(asc(monMeasures.id));
  const extras = await loadMeasureExtras(
    db,
    projectId,
    measures.map((m) => m.id),
  );
  for (const measure of measures) {
    try {
      await seriesOfMeasure(
        db,
        measure,
        { chart: measure.chartDefault as SpcChart, stratum: '', ruleProfile: measure.ruleProfile as SpcRuleSet },
        today,
        extras.get(measure.id),
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
}
