import {
  type DatasetColumn,
  type ExpressionNode,
  evaluatePeriod,
  expressionColumns,
  nextPeriod,
  type PeriodGrain,
  parseExpression,
  periodStart,
} from '@portal/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
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

/** Days read per query: few round trips, and memory bounded by the days of one batch and one period's rows. */
export const DAY_BATCH = 366;
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
 * Reads a dataset's active rows of one project in date order (batches of days, only the cells the formulas read),
 * groups them by the grain's period of row_date and evaluates the formulas per period with the shared expression
 * engine (the one evaluation path: SQL only groups and ships cells). Only one period's rows are held at a time. Periods without rows between the first and the last period of the data (of all
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
  // Only the cells the formulas and strata read leave the database, one JSON array per column and day: on wide rows
  // most of the data is never used, and a few thousand day rows parse far faster than 100,000 row objects.
  const needed = new Set<string>();
  for (const ast of [numerator, denominator, valueExpr]) if (ast) expressionColumns(ast, needed);
  if (strataKey) needed.add(strataKey);
  if (stratum) needed.add(stratum.key);
  const neededKeys = [...needed];
  const cellColumns = neededKeys.map((key, i) => sql`, json_agg(${monRows.data} -> ${key}) as ${sql.raw(`c${i}`)}`);
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

  let after = '0001-01-01';
  for (;;) {
    // Every aggregate of a group sees the group's rows in the same order, so index i of each column is one row.
    const { rows: days } = await read(
      db.execute<{ day: string; n: number } & Record<string, unknown[]>>(sql`
        select ${monRows.rowDate}::text as day, count(*)::int as n${sql.join(cellColumns, sql``)}
          from ${monRows}
         where ${monRows.projectId} = ${projectId} and ${monRows.datasetId} = ${datasetId}
           and ${monRows.active} and ${monRows.rowDate} > ${after}::date
         group by ${monRows.rowDate}
         order by ${monRows.rowDate}
         limit ${DAY_BATCH}`),
    );
    for (const day of days) {
      const period = periodStart(day.day, grain);
      if (period !== current) enter(period);
      const columnsOfDay = neededKeys.map((_, i) => day[`c${i}`] as unknown[]);
      for (let r = 0; r < day.n; r++) {
        const row: Row = {};
        for (let k = 0; k < neededKeys.length; k++) row[neededKeys[k]!] = columnsOfDay[k]![r];
        if (strataKey && strata.size < STRATA_CAP) {
          const text = cellText(row[strataKey]);
          if (text !== null) strata.add(text);
        }
        if (stratum && cellText(row[stratum.key]) !== stratum.value) continue;
        currentRows.push(row);
      }
    }
    if (days.length < DAY_BATCH) break;
    after = days[days.length - 1]!.day;
  }
  close();
  const sorted = [...strata].sort((a, b) => a.localeCompare(b));
  return { periods, strata: sorted, readMs, computeMs: cpuMs() - startedCpu - readCpu };
}
