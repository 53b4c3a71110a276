import { createHash } from 'node:crypto';
import {
  type Annotation,
  type AnnotationKind,
  type AstronomicalPointCriterion,
  type Benchmark,
  type BenchmarkStatistic,
  type DatasetColumn,
  type IhiRunsTest,
  type ImprovementDirection,
  type MeasureType,
  measureUsesDenominator,
  type PeriodGrain,
  type Phase,
  type PhaseReason,
  parseExpression,
  periodStart,
  RULE_LABELS,
  type Series,
  type SpcChart,
  type SpcRuleSet,
  type Target,
  type TargetKind,
} from '@portal/shared';
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
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
  const [row] = await db
    .select()
    .from(monMeasures)
    .where(and(eq(monMeasures.projectId, projectId), eq(monMeasures.id, measureId), isNull(monMeasures.deletedAt)));
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

/** Targets, benchmarks, phases and annotations of measures of one project, by measure id. */
export async function loadMeasureExtras(
  db: DbOrTx,
  projectId: number,
  measureIds: readonly number[],
): Promise<Map<number, MeasureExtras>> {
  const out = new Map<number, MeasureExtras>(
    measureIds.map((id) => [id, { targets: [], benchmarks: [], phases: [], annotations: [] }]),
  );
  if (measureIds.length === 0) return out;
  const ids = [...measureIds];
  const [targets, benchmarks, phases, annotations] = await Promise.all([
    db
      .select()
      .from(monTargets)
      .where(and(eq(monTargets.projectId, projectId), inArray(monTargets.measureId, ids)))
      .orderBy(asc(monTargets.effectiveFrom), asc(monTargets.id)),
    db
      .select()
      .from(monBenchmarks)
      .where(and(eq(monBenchmarks.projectId, projectId), inArray(monBenchmarks.measureId, ids)))
      .orderBy(desc(monBenchmarks.asOf), asc(monBenchmarks.id)),
    db
      .select()
      .from(monPhases)
      .where(and(eq(monPhases.projectId, projectId), inArray(monPhases.measureId, ids)))
      .orderBy(asc(monPhases.startPeriod), asc(monPhases.id)),
    db
      .select()
      .from(monAnnotations)
      .where(and(eq(monAnnotations.projectId, projectId), inArray(monAnnotations.measureId, ids)))
      .orderBy(asc(monAnnotations.periodStart), asc(monAnnotations.id)),
  ]);
  for (const t of targets) {
    out.get(t.measureId)?.targets.push({
      id: t.id,
      value: t.value,
      effective_from: t.effectiveFrom,
      kind: t.kind as TargetKind,
    });
  }
  for (const b of benchmarks) {
    out.get(b.measureId)?.benchmarks.push({
      id: b.id,
      source: b.source,
      statistic: b.statistic as BenchmarkStatistic,
      percentile: b.percentile,
      value: b.value,
      period_label: b.periodLabel,
      as_of: b.asOf,
      spec_match: b.specMatch,
      citation_url: b.citationUrl,
      note: b.note,
    });
  }
  for (const p of phases) {
    out.get(p.measureId)?.phases.push({
      id: p.id,
      start_period: p.startPeriod,
      label: p.label,
      reason: p.reason as PhaseReason,
    });
  }
  for (const a of annotations) {
    out.get(a.measureId)?.annotations.push({
      id: a.id,
      period_start: a.periodStart,
      kind: a.kind as AnnotationKind,
      text: a.text,
      exclude_from_limits: a.excludeFromLimits,
    });
  }
  return out;
}

interface DatasetInfo {
  id: number;
  version: number;
  rowCount: number;
  columns: DatasetColumn[];
}

async function loadDataset(db: DbOrTx, projectId: number, datasetId: number | null): Promise<DatasetInfo | null> {
  if (datasetId === null) return null;
  const [row] = await db
    .select({
      id: monDatasets.id,
      version: monDatasets.version,
      rowCount: monDatasets.rowCount,
      columns: monDatasets.columns,
    })
    .from(monDatasets)
    .where(and(eq(monDatasets.projectId, projectId), eq(monDatasets.id, datasetId), isNull(monDatasets.deletedAt)));
  return row ? { ...row, columns: row.columns as DatasetColumn[] } : null;
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
  const more = extras ?? (await loadMeasureExtras(db, projectId, [measure.id])).get(measure.id)!;
  const dataset = await loadDataset(db, projectId, measure.datasetId);
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
  const key = and(
    eq(monSeries.projectId, projectId),
    eq(monSeries.measureId, measure.id),
    eq(monSeries.stratum, options.stratum),
    eq(monSeries.chart, options.chart),
  );
  const [cached] = await db
    .select({
      inputHash: monSeries.inputHash,
      result: monSeries.result,
      computedAt: monSeries.computedAt,
      computeMs: monSeries.computeMs,
    })
    .from(monSeries)
    .where(key);
  if (cached && cached.inputHash === inputHash) {
    return { ...(cached.result as Series), computed_at: cached.computedAt.toISOString(), compute_ms: cached.computeMs };
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
