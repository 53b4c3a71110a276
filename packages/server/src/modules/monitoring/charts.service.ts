import {
  type Benchmark,
  type Chart,
  type ChartList,
  type ChartUpdate,
  type chartCreateSchema,
  chartOptionsSchema,
  type DatasetColumn,
  explainExpression,
  type ImprovementDirection,
  type MeasureSummaryList,
  type MeasureType,
  measureDefinitionSchema,
  measureUsesDenominator,
  type PeriodGrain,
  parseExpression,
  periodStart,
  type Series,
  SPC_RULES,
  type SpcChart,
  type SpcRule,
  type SpcRuleSet,
  STALE_CHART_MESSAGE,
} from '@portal/shared';
import { and, asc, eq, inArray, isNull, max, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
import { monCharts, monDatasets, monMeasures, monPages } from '../../db/schema/index.js';
import { subjectAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { pageRules } from '../../policies/monitoring-records.js';
import { authorize, can } from '../../policies/rules.js';
import { pageFacts, requirePageAccess } from './page-access.js';
import { EMPTY_REASONS, targetAt } from './series.build.js';
import { assertChartFits, extrasOf, type MeasureExtras, type MeasureRow, seriesOfMeasure } from './series.service.js';

/**
 * Charts of pages (issue 9; SPEC page-charts, add-page-chart, edit-page-chart): one measure of the page drawn as a
 * run or control chart with its options. Everyone who sees a page sees its charts; adding needs the add-page-chart
 * section, changing and removing the edit-page-chart section, both with edit access to the page. Positions are
 * 0, 1, 2... in page order; a move renumbers the page's charts. Every change is audited in its transaction.
 */

export type ChartCreateInput = z.output<typeof chartCreateSchema>;
type ChartRow = typeof monCharts.$inferSelect;

const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', message, { [field]: [message] });

const CHART_FIELDS = {
  id: monCharts.id,
  pageId: monCharts.pageId,
  title: monCharts.title,
  chartType: monCharts.chartType,
  options: monCharts.options,
  position: monCharts.position,
  version: monCharts.version,
  updatedAt: monCharts.updatedAt,
  measureId: monMeasures.id,
  measureName: monMeasures.name,
  measureType: monMeasures.type,
};

function present(row: ChartEntry): Chart {
  return {
    id: row.id,
    page_id: row.pageId,
    measure: { id: row.measureId, name: row.measureName, type: row.measureType as MeasureType },
    title: row.title,
    chart_type: row.chartType as SpcChart,
    // Stored options are filled with today's defaults, so an older row reads whole.
    options: chartOptionsSchema.parse(row.options ?? {}),
    position: row.position,
    version: row.version,
    updated_at: row.updatedAt.toISOString(),
  };
}

type ChartEntry = Awaited<ReturnType<typeof chartQuery>>[number];

/** Charts with a live measure, in page order. */
function chartQuery(db: DbOrTx, projectId: number | Placeholder, where: SQL | undefined) {
  return db
    .select(CHART_FIELDS)
    .from(monCharts)
    .innerJoin(
      monMeasures,
      and(
        eq(monMeasures.id, monCharts.measureId),
        eq(monMeasures.projectId, monCharts.projectId),
        isNull(monMeasures.deletedAt),
      ),
    )
    .where(and(eq(monCharts.projectId, projectId), where))
    .orderBy(asc(monCharts.position), asc(monCharts.id));
}

/** GET /pages/{pageId}/charts. */
export async function listCharts(db: DbOrTx, actor: MonitoringActor, pageId: number): Promise<ChartList> {
  const page = await pageFacts(db, actor, pageId);
  // Every view of a page asks this: a named statement.
  const rows = await prepared(db, 'portal_mon_page_charts', (handle, name) =>
    chartQuery(handle, sql.placeholder('projectId'), eq(monCharts.pageId, sql.placeholder('pageId'))).prepare(name),
  ).execute({ projectId: actor.projectId, pageId });
  return {
    charts: rows.map(present),
    abilities: { edit: can(pageRules, 'edit_charts', actor, page) },
  };
}

async function loadChart(db: DbOrTx, actor: MonitoringActor, chartId: number): Promise<Chart> {
  const [row] = await chartQuery(db, actor.projectId, eq(monCharts.id, chartId));
  if (!row) throw notFound('Chart not found.');
  return present(row);
}

/** GET /charts/{chartId}: 404 when the chart's page is hidden from the actor. */
export async function getChart(db: DbOrTx, actor: MonitoringActor, chartId: number): Promise<Chart> {
  const chart = await loadChart(db, actor, chartId);
  await pageFacts(db, actor, chart.page_id, 'Chart not found.');
  return chart;
}

/** A live measure of this page and project that fits the chart type (400 otherwise). */
async function measureForChart(db: DbOrTx, projectId: number, pageId: number, measureId: number, chart: SpcChart) {
  const [measure] = await db
    .select({ id: monMeasures.id, type: monMeasures.type, strataKeys: monMeasures.strataKeys })
    .from(monMeasures)
    .where(
      and(
        eq(monMeasures.projectId, projectId),
        eq(monMeasures.id, measureId),
        eq(monMeasures.pageId, pageId),
        isNull(monMeasures.deletedAt),
      ),
    );
  if (!measure) throw invalid('measure_id', 'Choose a measure of this page.');
  assertChartFits(measure.type as MeasureType, chart, 'chart_type');
  return measure;
}

function checkOptions(options: Chart['options'], strataKeys: readonly string[]): void {
  if (options.from && options.to && options.from > options.to) {
    throw invalid('options.to', 'The end of the range is before its start.');
  }
  if (options.stratum !== null && strataKeys.length === 0) {
    throw invalid('options.stratum', 'This measure has no strata.');
  }
}

/** Locks the page row: chart positions of one page change one transaction at a time. */
async function lockPage(tx: DbOrTx, projectId: number, pageId: number) {
  await tx
    .select({ id: monPages.id })
    .from(monPages)
    .where(and(eq(monPages.projectId, projectId), eq(monPages.id, pageId)))
    .for('update');
}

/** Records a chart change (`monitoring.<action>`, subject `mon_chart`) in the transaction of the change. */
const audit = subjectAudit('monitoring', 'mon_chart');

/** POST /pages/{pageId}/charts: the new chart goes last. */
export async function createChart(
  db: Database,
  actor: MonitoringActor,
  pageId: number,
  input: ChartCreateInput,
  now: Date,
): Promise<Chart> {
  const id = await db.transaction(async (tx) => {
    await requirePageAccess(tx, actor, pageId, 'edit');
    await lockPage(tx, actor.projectId, pageId);
    const measure = await measureForChart(tx, actor.projectId, pageId, input.measure_id, input.chart_type);
    checkOptions(input.options, measure.strataKeys);
    const [last] = await tx
      .select({ position: max(monCharts.position) })
      .from(monCharts)
      .where(and(eq(monCharts.projectId, actor.projectId), eq(monCharts.pageId, pageId)));
    const [row] = await tx
      .insert(monCharts)
      .values({
        projectId: actor.projectId,
        pageId,
        measureId: measure.id,
        title: input.title,
        chartType: input.chart_type,
        options: input.options,
        position: last?.position === null || last?.position === undefined ? 0 : last.position + 1,
        createdAt: now,
        createdBy: actor.userId,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .returning({ id: monCharts.id, position: monCharts.position });
    await audit(
      tx,
      actor,
      'chart_created',
      row!.id,
      {
        page_id: pageId,
        measure_id: measure.id,
        title: input.title,
        chart_type: input.chart_type,
        position: row!.position,
      },
      now,
    );
    return row!.id;
  });
  return loadChart(db, actor, id);
}

/**
 * The chart for a change, read again after its page is locked (page first, then charts: the order every change
 * takes, so two changes on one page never deadlock). 404 when missing or its page hidden, 403 without edit access.
 */
async function editableChart(tx: DbOrTx, actor: MonitoringActor, chartId: number): Promise<ChartRow> {
  const where = and(eq(monCharts.projectId, actor.projectId), eq(monCharts.id, chartId));
  const [found] = await tx.select({ pageId: monCharts.pageId }).from(monCharts).where(where);
  if (!found) throw notFound('Chart not found.');
  authorize(pageRules, 'edit_charts', actor, await pageFacts(tx, actor, found.pageId, 'Chart not found.'));
  await lockPage(tx, actor.projectId, found.pageId);
  const [row] = await tx.select().from(monCharts).where(where).for('update');
  if (!row) throw notFound('Chart not found.');
  return row;
}

/** Writes positions 0..n-1 in the given order, touching only the rows that move. */
async function renumber(tx: DbOrTx, projectId: number, order: { id: number; position: number }[]) {
  for (const [position, chart] of order.entries()) {
    if (chart.position === position) continue;
    await tx
      .update(monCharts)
      .set({ position })
      .where(and(eq(monCharts.projectId, projectId), eq(monCharts.id, chart.id)));
  }
}

async function siblings(tx: DbOrTx, projectId: number, pageId: number) {
  return tx
    .select({ id: monCharts.id, position: monCharts.position })
    .from(monCharts)
    .where(and(eq(monCharts.projectId, projectId), eq(monCharts.pageId, pageId)))
    .orderBy(asc(monCharts.position), asc(monCharts.id));
}

/** PUT /charts/{chartId}: the fields given, if the edit started from the current version. */
export async function updateChart(
  db: Database,
  actor: MonitoringActor,
  chartId: number,
  input: ChartUpdate,
  now: Date,
): Promise<Chart> {
  await db.transaction(async (tx) => {
    const row = await editableChart(tx, actor, chartId);
    if (row.version !== input.version) {
      throw new AppError('CONFLICT', STALE_CHART_MESSAGE, { version: [String(row.version)] });
    }
    const next = {
      measureId: input.measure_id ?? row.measureId,
      title: input.title ?? row.title,
      chartType: input.chart_type ?? row.chartType,
      options: input.options ?? chartOptionsSchema.parse(row.options ?? {}),
    };
    const measure = await measureForChart(tx, actor.projectId, row.pageId, next.measureId, next.chartType as SpcChart);
    checkOptions(next.options, measure.strataKeys);
    const changed: string[] = [];
    if (next.measureId !== row.measureId) changed.push('measure_id');
    if (next.title !== row.title) changed.push('title');
    if (next.chartType !== row.chartType) changed.push('chart_type');
    if (JSON.stringify(next.options) !== JSON.stringify(chartOptionsSchema.parse(row.options ?? {}))) {
      changed.push('options');
    }
    let moved: { from: number; to: number } | null = null;
    if (input.position !== undefined) {
      const all = await siblings(tx, actor.projectId, row.pageId);
      const from = all.findIndex((c) => c.id === chartId);
      const order = all.filter((c) => c.id !== chartId);
      const to = Math.min(input.position, order.length);
      order.splice(to, 0, { id: chartId, position: row.position });
      await renumber(tx, actor.projectId, order);
      if (from !== to) {
        moved = { from, to };
        changed.push('position');
      }
    }
    if (changed.length === 0) return;
    await tx
      .update(monCharts)
      .set({ ...next, version: row.version + 1, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(monCharts.projectId, actor.projectId), eq(monCharts.id, chartId)));
    await audit(
      tx,
      actor,
      'chart_updated',
      chartId,
      {
        page_id: row.pageId,
        fields: changed,
        version: row.version + 1,
        ...(moved ? { position: moved } : {}),
        changes: changes(
          {
            measure_id: row.measureId,
            title: row.title,
            chart_type: row.chartType,
            options: chartOptionsSchema.parse(row.options ?? {}),
            position: moved?.from ?? null,
          },
          {
            measure_id: next.measureId,
            title: next.title,
            chart_type: next.chartType,
            options: next.options,
            position: moved?.to ?? null,
          },
        ),
      },
      now,
    );
  });
  return loadChart(db, actor, chartId);
}

/** DELETE /charts/{chartId}: removes the chart and closes the gap in the page's order. */
export async function deleteChart(db: Database, actor: MonitoringActor, chartId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await editableChart(tx, actor, chartId);
    await tx.delete(monCharts).where(and(eq(monCharts.projectId, actor.projectId), eq(monCharts.id, chartId)));
    await renumber(tx, actor.projectId, await siblings(tx, actor.projectId, row.pageId));
    await audit(
      tx,
      actor,
      'chart_deleted',
      chartId,
      {
        page_id: row.pageId,
        measure_id: row.measureId,
        title: row.title,
        chart_type: row.chartType,
      },
      now,
    );
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The page's measure summary (page view): one line per measure from its overall series.

/** The formulas in words, with the dataset's column labels ("The sum of Falls, divided by ..., times 1,000."). */
export function explainFormulas(measure: MeasureRow, columns: readonly DatasetColumn[]): string {
  const labels = new Map(columns.map((c) => [c.key, c.label]));
  const keys = columns.map((c) => c.key);
  const say = (text: string) => {
    const parsed = parseExpression(text, { columns: keys, level: 'period' });
    return parsed.ok ? explainExpression(parsed.ast, { labels }) : null;
  };
  const parts = measureUsesDenominator(measure.type as MeasureType)
    ? [say(measure.numerator), say(measure.denominator)]
    : [say(measure.valueExpr)];
  if (parts.some((p) => p === null)) return EMPTY_REASONS.noFormulas;
  const text = parts.join(', divided by ');
  const times = measure.multiplier === 1 ? '' : `, times ${measure.multiplier.toLocaleString('en-US')}`;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${times}.`;
}

/** The rules that fired on the points of the series' latest phase, in SPC_RULES order. */
export function latestPhaseSignals(series: Series): SpcRule[] {
  const last = Math.max(-1, ...series.points.map((p) => p.phase));
  const fired = new Set(series.points.filter((p) => p.phase === last).flatMap((p) => p.signals));
  return SPC_RULES.filter((rule) => fired.has(rule));
}

/** The first benchmark whose definition matches (newest first), else the newest one. */
const benchmarkOf = (benchmarks: readonly Benchmark[]) => benchmarks.find((b) => b.spec_match) ?? benchmarks[0] ?? null;

/** The overall series of each measure of a page, in page order (null when it cannot be computed). */
export async function pageMeasureSeries(db: DbOrTx, actor: MonitoringActor, pageId: number, today: Date) {
  // The page's measures with their extras: one named statement.
  const rows = await prepared(db, 'portal_mon_page_measures', (handle, name) =>
    handle
      .select({ measure: monMeasures, extras: extrasOf(sql.placeholder('projectId'), monMeasures.id) })
      .from(monMeasures)
      .where(
        and(
          eq(monMeasures.projectId, sql.placeholder('projectId')),
          eq(monMeasures.pageId, sql.placeholder('pageId')),
          isNull(monMeasures.deletedAt),
        ),
      )
      .orderBy(asc(monMeasures.position), asc(monMeasures.id))
      .prepare(name),
  ).execute({ projectId: actor.projectId, pageId });
  const measures = rows.map((row) => row.measure);
  const extras = new Map(rows.map((row) => [row.measure.id, row.extras]));
  const out: { measure: MeasureRow; extras: MeasureExtras; series: Series | null }[] = [];
  for (const measure of measures) {
    const more = extras.get(measure.id) as MeasureExtras;
    let series: Series | null = null;
    try {
      series = await seriesOfMeasure(
        db,
        measure,
        { chart: measure.chartDefault as SpcChart, stratum: '', ruleProfile: measure.ruleProfile as SpcRuleSet },
        today,
        more,
      );
    } catch (error) {
      // A measure over the row limit (or with a chart that does not fit) shows no reading; its chart says why.
      if (!(error instanceof AppError)) throw error;
    }
    out.push({ measure, extras: more, series });
  }
  return out;
}

/** GET /pages/{pageId}/measure-summary. */
export async function measureSummary(
  db: DbOrTx,
  actor: MonitoringActor,
  pageId: number,
  today: Date,
): Promise<MeasureSummaryList> {
  await pageFacts(db, actor, pageId);
  const entries = await pageMeasureSeries(db, actor, pageId, today);
  const datasetIds = [...new Set(entries.map((e) => e.measure.datasetId).filter((id): id is number => id !== null))];
  const datasets = datasetIds.length
    ? await db
        .select({ id: monDatasets.id, columns: monDatasets.columns })
        .from(monDatasets)
        .where(and(eq(monDatasets.projectId, actor.projectId), inArray(monDatasets.id, datasetIds)))
    : [];
  const columnsOf = new Map(datasets.map((d) => [d.id, d.columns as DatasetColumn[]]));
  const day = today.toISOString().slice(0, 10);
  return {
    measures: entries.map(({ measure, extras, series }) => {
      const complete = series?.points.filter((p) => !p.provisional) ?? [];
      const latest = complete.findLast((p) => p.value !== null) ?? null;
      const grain = measure.grain as PeriodGrain;
      const target = targetAt(extras.targets, latest?.period ?? periodStart(day, grain), grain);
      return {
        measure_id: measure.id,
        name: measure.name,
        type: measure.type as MeasureType,
        unit_label: measure.unitLabel,
        direction: measure.direction as ImprovementDirection,
        latest: latest && {
          period: latest.period,
          label: latest.label,
          value: latest.value,
          numerator: latest.numerator,
          denominator: latest.denominator,
          rows: latest.rows,
        },
        target: target && { value: target.value, kind: target.kind },
        benchmark: benchmarkOf(extras.benchmarks),
        variation: series?.summary.variation ?? null,
        assurance: series?.summary.assurance ?? null,
        trial: series?.summary.trial ?? false,
        signals: series ? latestPhaseSignals(series) : [],
        sparkline: complete.slice(-24).map((p) => p.value),
        definition: measureDefinitionSchema.parse(measure.definition ?? {}),
        explanation:
          measure.datasetId !== null && columnsOf.has(measure.datasetId)
            ? explainFormulas(measure, columnsOf.get(measure.datasetId) ?? [])
            : EMPTY_REASONS.noDataset,
      };
    }),
  };
}
