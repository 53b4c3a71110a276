import type { PeriodGrain } from '@portal/shared';
import type { DbOrTx } from '../../db/client.js';

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

/**
 * Issue 9 (measures slice owns it): streams a dataset's active rows of one project in period order, groups them by
 * the grain's period of row_date and evaluates the formulas per period (shared expression engine). Periods without
 * rows inside the data's range are returned with rows 0. `strata` lists the distinct values of `strataKey`.
 */
export async function evaluateMeasurePeriods(
  _db: DbOrTx,
  _projectId: number,
  _datasetId: number,
  _formulas: MeasureFormulas,
  _options: { strataKey?: string | null } = {},
): Promise<{ periods: PeriodValue[]; strata: string[] }> {
  throw new Error('evaluateMeasurePeriods: not built yet');
}
