import {
  type DatasetColumn,
  type ExpressionNode,
  evaluatePeriod,
  nextPeriod,
  type PeriodGrain,
  parseExpression,
  periodStart,
} from '@portal/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { monDatasets, monRows } from '../../db/schema/index.js';

/** One period of a measure on current data: rows in it and the evaluated formulas (before the multiplier). */
export interface PeriodValue {
  period: string;
  rows: number;
  numerator: number | null;
  denominator: number | null;
  value: number | null;
}

export interface MeasureFormulas {
  numerator: string;
  denominator: string;
  value_expr: string;
  /** proportion/rate/ratio use numerator/denominator; the other types use value_expr. */
  usesDenominator: boolean;
  grain: PeriodGrain;
  /** Only rows whose `stratum.key` column equals `stratum.value` (as text). */
  stratum?: { key: string; value: string } | null;
}

/** Rows read per query: bounded memory on a million-row dataset, few round trips on a small one. */
export const ROW_BATCH = 10_000;
/** Distinct strata values kept for the stratum picker. */
export const STRATA_CAP = 200;

type Row = Record<string, unknown>;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
};

export interface MeasurePeriods {
  periods: PeriodValue[];
  strata: string[];
  /** Wall time spent reading from PostgreSQL (the dataset and the row batches, driver parsing included), in ms. */
  readMs?: number;
  /**
   * CPU time of the grouping and evaluation (everything but the reads), in ms: the budget is 200 ms per 100,000
   * rows. CPU time, so that a busy machine does not count other processes' work.
   */
  computeMs?: number;
}

/** A cell as the text strata compare on; null when the cell is missing or not a plain value. */
export function cellText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return null;
}

/** The column keys of a dataset of the project (null when it is missing or deleted). */
export async function datasetColumns(
  db: DbOrTx,
  projectId: number,
  datasetId: number,
): Promise<DatasetColumn[] | null> {
  const [dataset] = await db
    .select({ columns: monDatasets.columns })
    .from(monDatasets)
    .where(and(eq(monDatasets.id, datasetId), eq(monDatasets.projectId, projectId), isNull(monDatasets.deletedAt)));
  return dataset ? (dataset.columns as DatasetColumn[]) : null;
}

function parsePeriodFormula(text: string, columns: string[]): ExpressionNode | null {
  if (text.trim() === '') return null;
  const parsed = parseExpression(text, { columns, level: 'period' });
  return parsed.ok ? parsed.ast : null;
}

/**
 * Streams a dataset's active rows of one project in period order (keyset batches on (row_date, id)), groups them by
 * the grain's period of row_date and evaluates the formulas per period with the shared expression engine. Only one
 * period's rows are held at a time. Periods without rows between the first and the last period of the data (of all
 * strata, so strata share one axis) are returned with rows 0 and the formulas' empty-period values. An empty or
 * invalid formula gives null values. `strata` lists the distinct values of `strataKey` (at most STRATA_CAP).
 */
export async function evaluateMeasurePeriods(
  db: DbOrTx,
  projectId: number,
  datasetId: number,
  formulas: MeasureFormulas,
  options: { strataKey?: string | null } = {},
): Promise<MeasurePeriods> {
  const startedCpu = cpuMs();
  let readMs = 0;
  let readCpu = 0;
  const read = async <T>(query: Promise<T>): Promise<T> => {
    const [wall, cpu] = [performance.now(), cpuMs()];
    const result = await query;
    readMs += performance.now() - wall;
    readCpu += cpuMs() - cpu;
    return result;
  };
  const columns = await read(datasetColumns(db, projectId, datasetId));
  if (!columns) return { periods: [], strata: [], readMs: 0, computeMs: 0 };
  const keys = columns.map((column) => column.key);
  const numerator = formulas.usesDenominator ? parsePeriodFormula(formulas.numerator, keys) : null;
  const denominator = formulas.usesDenominator ? parsePeriodFormula(formulas.denominator, keys) : null;
  const valueExpr = formulas.usesDenominator ? null : parsePeriodFormula(formulas.value_expr, keys);
  const { grain, stratum } = formulas;
  const strataKey = options.strataKey ?? null;

  const evaluateRows = (period: string, rows: Row[]): PeriodValue => {
    if (formulas.usesDenominator) {
      const num = numerator ? evaluatePeriod(numerator, rows) : null;
      const den = denominator ? evaluatePeriod(denominator, rows) : null;
      const value = num === null || den === null || den === 0 ? null : num / den;
      return { period, rows: rows.length, numerator: num, denominator: den, value };
    }
    const value = valueExpr ? evaluatePeriod(valueExpr, rows) : null;
    return { period, rows: rows.length, numerator: null, denominator: null, value };
  };
  // A gap's values depend only on the formulas (count/sum give 0, mean gives null): computed once.
  let empty: Omit<PeriodValue, 'period'> | null = null;
  const gap = (period: string): PeriodValue => {
    empty ??= evaluateRows('', []);
    return { ...empty, period };
  };

  const periods: PeriodValue[] = [];
  const strata = new Set<string>();
  let current: string | null = null;
  let currentRows: Row[] = [];
  const close = () => {
    if (current !== null) periods.push(evaluateRows(current, currentRows));
    currentRows = [];
  };
  const enter = (period: string) => {
    close();
    if (current !== null)
      for (let p = nextPeriod(current, grain); p < period; p = nextPeriod(p, grain)) periods.push(gap(p));
    current = period;
  };

  let after: { date: string; id: number } | null = null;
  let lastDate = '';
  let lastPeriod = '';
  for (;;) {
    const batch: { id: number; rowDate: string; data: unknown }[] = await read(
      db
        .select({ id: monRows.id, rowDate: monRows.rowDate, data: monRows.data })
        .from(monRows)
        .where(
          and(
            eq(monRows.projectId, projectId),
            eq(monRows.datasetId, datasetId),
            eq(monRows.active, true),
            after ? sql`(${monRows.rowDate}, ${monRows.id}) > (${after.date}::date, ${after.id})` : undefined,
          ),
        )
        .orderBy(asc(monRows.rowDate), asc(monRows.id))
        .limit(ROW_BATCH),
    );
    for (const { rowDate, data } of batch) {
      // Rows come in date order, so the period only needs working out when the date changes.
      if (rowDate !== lastDate) {
        lastDate = rowDate;
        lastPeriod = periodStart(rowDate, grain);
      }
      if (lastPeriod !== current) enter(lastPeriod);
      const row = data as Row;
      if (strataKey && strata.size < STRATA_CAP) {
        const text = cellText(Object.hasOwn(row, strataKey) ? row[strataKey] : null);
        if (text !== null) strata.add(text);
      }
      if (stratum && cellText(Object.hasOwn(row, stratum.key) ? row[stratum.key] : null) !== stratum.value) continue;
      currentRows.push(row);
    }
    if (batch.length < ROW_BATCH) break;
    const last = batch[batch.length - 1]!;
    after = { date: last.rowDate, id: last.id };
  }
  close();
  const sorted = [...strata].sort((a, b) => a.localeCompare(b));
  return { periods, strata: sorted, readMs, computeMs: cpuMs() - startedCpu - readCpu };
}
