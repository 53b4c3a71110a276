import {
  type Annotation,
  type Benchmark,
  computeSpc,
  type ImprovementDirection,
  type MeasureType,
  measureUsesDenominator,
  type PeriodGrain,
  type Phase,
  periodLabel,
  periodStart,
  type Series,
  type SeriesPoint,
  type SpcChart,
  type SpcInputPoint,
  type SpcOptions,
  type SpcRuleSet,
  type Target,
} from '@portal/shared';
import type { PeriodValue } from './measure-values.js';

/**
 * A measure's periods turned into the series the charts draw (issue 9; DOMAIN.md 1.1, 1.10), as a pure function:
 * the server's cache and the formula builder's preview both call it.
 * - The period that holds `today`, and any later one, is provisional: drawn, but left out of limits and rules.
 * - Periods with an annotation that excludes them from the limits are excluded the same way.
 * - The SPC engine works on the raw ratio (0.05, not 5 %); values and lines are then multiplied, so a proportion
 *   with multiplier 100 reads in percent and a rate with 1000 "per 1,000". Targets are entered on the shown scale.
 */

export const EMPTY_REASONS = {
  noDataset: 'No dataset is chosen for this measure.',
  noFormulas: 'The formulas are not complete.',
  noRows: 'The dataset has no rows yet.',
} as const;

export interface SeriesBuildInput {
  periods: PeriodValue[];
  grain: PeriodGrain;
  type: MeasureType;
  chart: SpcChart;
  ruleProfile: SpcRuleSet;
  /** The measure's ihi_run options; absent = the engine's defaults. */
  ruleOptions?: Pick<SpcOptions, 'ihiRunsTest' | 'astronomicalPoint'>;
  direction: ImprovementDirection;
  multiplier: number;
  unitLabel: string;
  targets: Target[];
  benchmarks: Benchmark[];
  annotations: Annotation[];
  phases: Phase[];
  baseline: { from: string; to: string } | null;
  today: Date;
  measureId: number | null;
  formulaVersion: number;
  formulaHash: string | null;
  datasetVersion: number;
  stratum: string | null;
  strata: string[];
  /** Why nothing can be computed (no dataset, incomplete formulas): no points, this reason. */
  emptyReason?: string | null;
}

const RATIO_CHARTS: ReadonlySet<SpcChart> = new Set(['p', 'pprime', 'u', 'uprime']);

/** Whether a chart needs a numerator and a denominator per period (P, P', U, U'). */
export const chartNeedsDenominator = (chart: SpcChart) => RATIO_CHARTS.has(chart);

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** 12 significant digits: 0.05 * 100 reads 5, not 5.000000000000001. */
const tidy = (x: number) => Number(x.toPrecision(12));
const scale = (x: number | null, by: number) => (x === null ? null : tidy(x * by));

/** The target of kind 'target' in effect in a period: the latest one that starts in or before it. */
export function targetAt(targets: readonly Target[], period: string, grain: PeriodGrain): Target | null {
  let best: Target | null = null;
  for (const t of targets) {
    if (t.kind !== 'target' || periodStart(t.effective_from, grain) > period) continue;
    if (!best || t.effective_from > best.effective_from || (t.effective_from === best.effective_from && t.id > best.id))
      best = t;
  }
  return best;
}

function inputPoint(p: PeriodValue, type: MeasureType, chart: SpcChart, excluded: boolean): SpcInputPoint {
  if (RATIO_CHARTS.has(chart))
    return { period: p.period, numerator: p.numerator, denominator: p.denominator, excluded };
  if (measureUsesDenominator(type)) {
    // Run, I and the other charts of a ratio measure read the ratio itself.
    const value = p.numerator !== null && p.denominator ? p.numerator / p.denominator : null;
    return { period: p.period, value, numerator: p.numerator, denominator: p.denominator, excluded };
  }
  return { period: p.period, value: p.value, excluded };
}

/** The index of the first period at or after `day`'s period (-1: none). */
const firstAtOrAfter = (periods: readonly string[], day: string, grain: PeriodGrain) => {
  const start = periodStart(day, grain);
  return periods.findIndex((p) => p >= start);
};

function baselineIndexes(periods: readonly string[], baseline: SeriesBuildInput['baseline'], grain: PeriodGrain) {
  if (!baseline) return undefined;
  const from = firstAtOrAfter(periods, baseline.from, grain);
  const last = periodStart(baseline.to, grain);
  const to = periods.findLastIndex((p) => p <= last);
  return from === -1 || to < from ? undefined : { from, to };
}

const emptySummary: Series['summary'] = {
  variation: null,
  assurance: null,
  trial: false,
  baseline_points: 0,
  useful_points: 0,
  longest_run: null,
  crossings: null,
  run_limit: null,
  crossing_limit: null,
};

export function buildSeries(input: SeriesBuildInput): Series {
  const { grain, multiplier } = input;
  const reason = input.emptyReason ?? (input.periods.length === 0 ? EMPTY_REASONS.noRows : null);
  const periods = reason ? [] : input.periods;
  const keys = periods.map((p) => p.period);
  const current = periodStart(isoDay(input.today), grain);
  const dataIssues = new Set(
    input.annotations.filter((a) => a.exclude_from_limits).map((a) => periodStart(a.period_start, grain)),
  );
  const spcInput = periods.map((p) =>
    inputPoint(p, input.type, input.chart, p.period >= current || dataIssues.has(p.period)),
  );
  const phases = input.phases
    .map((phase) => firstAtOrAfter(keys, phase.start_period, grain))
    .filter((index) => index > 0);
  const lastComplete = keys.findLast((p) => p < current);
  const target = lastComplete ? targetAt(input.targets, lastComplete, grain) : null;
  const spc = computeSpc(spcInput, {
    chart: input.chart,
    rules: input.ruleProfile,
    ...input.ruleOptions,
    baseline: baselineIndexes(keys, input.baseline, grain),
    phases,
    direction: input.direction,
    // The engine works on the raw scale; targets are entered on the shown one.
    target: target ? target.value / multiplier : null,
  });
  const points: SeriesPoint[] = spc.points.map((p, i) => {
    const source = periods[i] as PeriodValue;
    return {
      period: p.period,
      label: periodLabel(p.period, grain),
      rows: source.rows,
      numerator: p.numerator,
      denominator: p.denominator,
      value: scale(p.value, multiplier),
      gap: p.gap,
      excluded: p.excluded,
      provisional: p.period >= current,
      phase: p.phase,
      cl: scale(p.cl, multiplier),
      ucl: scale(p.ucl, multiplier),
      lcl: scale(p.lcl, multiplier),
      ucl2: scale(p.ucl2, multiplier),
      lcl2: scale(p.lcl2, multiplier),
      ucl1: scale(p.ucl1, multiplier),
      lcl1: scale(p.lcl1, multiplier),
      signals: p.signals,
      variation: p.variation,
      target: targetAt(input.targets, p.period, grain)?.value ?? null,
    };
  });
  return {
    measure_id: input.measureId,
    chart: input.chart,
    rule_profile: input.ruleProfile,
    grain,
    unit_label: input.unitLabel,
    multiplier,
    direction: input.direction,
    stratum: input.stratum,
    strata: input.strata,
    points,
    summary: reason ? emptySummary : spc.summary,
    benchmarks: input.benchmarks,
    annotations: input.annotations,
    phases: input.phases,
    formula_version: input.formulaVersion,
    formula_hash: input.formulaHash,
    dataset_version: input.datasetVersion,
    computed_at: input.today.toISOString(),
    compute_ms: 0,
    empty_reason: reason,
  };
}
