import { type Benchmark, formatPercent, RULE_LABELS, type SeriesPoint, type SpcRule } from '@portal/shared';

/**
 * Words, numbers and colours the SPC charts, tables and summaries share, in monitoring and in chart review (no chart
 * library here: the screens import this eagerly).
 */

/** Fixed, so the skeleton, the chart and the table toggle never make the page jump. */
export const CHART_HEIGHT = 320;

export type Variation = SeriesPoint['variation'];
export type Assurance = 'pass' | 'fail' | 'hit_and_miss';

/** NHS "Making Data Count" variation readings, as people read them in the summary table and tooltips. */
export const VARIATION_TEXT: Record<Variation, string> = {
  improvement: 'Improvement',
  concern: 'Concern',
  common: 'Common cause',
  neutral: 'Special cause (no direction)',
};

export const ASSURANCE_TEXT: Record<Assurance, string> = {
  pass: 'Consistently passing',
  fail: 'Consistently failing',
  hit_and_miss: 'Hit and miss',
};

/** MDC hues (improvement blue, concern orange, neutral purple, common grey), darkened to 3:1 on white. */
export const VARIATION_COLOR: Record<Variation, string> = {
  improvement: '#1864ab',
  concern: '#d9480f',
  neutral: '#6741d9',
  common: '#5c636a',
};

export const ASSURANCE_COLOR: Record<Assurance, string> = {
  pass: '#1864ab',
  fail: '#d9480f',
  hit_and_miss: '#5c636a',
};

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Whole counts with thousands separators: 12,345. */
export const formatCount = (value: number) => grouped.format(value);

/** A measured value with sensible precision: 1,234 / 93.5 / 2.13 / 0.042. */
export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3;
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(value);
}

/** "93.5%" (the shared percent format) or "2.13 per 1,000 patient days"; "No value" for a gap. */
export function formatValue(value: number | null, unit: string): string {
  if (value === null) return 'No value';
  if (unit === '%') return formatPercent(value / 100);
  const number = formatNumber(value);
  if (!unit) return number;
  return `${number} ${unit}`;
}

/** "n = 120 rows (12/120)": how much data a period's value rests on. */
export function formatN(point: { rows: number; numerator: number | null; denominator: number | null }): string {
  const parts = `n = ${formatCount(point.rows)} ${point.rows === 1 ? 'row' : 'rows'}`;
  if (point.numerator === null || point.denominator === null) return parts;
  return `${parts} (${formatNumber(point.numerator)}/${formatNumber(point.denominator)})`;
}

export const ruleNames = (rules: readonly SpcRule[]) => rules.map((rule) => RULE_LABELS[rule]);

const ordinal = (n: number) => {
  const tens = n % 100;
  return `${n}${tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
};

/** "90th percentile", "mean", "SIR": what kind of figure a benchmark is. */
export function benchmarkStatistic(benchmark: Pick<Benchmark, 'statistic' | 'percentile'>): string {
  switch (benchmark.statistic) {
    case 'percentile':
      return benchmark.percentile === null ? 'percentile' : `${ordinal(benchmark.percentile)} percentile`;
    case 'sir':
      return 'SIR';
    default:
      return benchmark.statistic;
  }
}

/** "NHSN 50th percentile": the label of a benchmark line. */
export const benchmarkName = (benchmark: Pick<Benchmark, 'source' | 'statistic' | 'percentile'>) =>
  `${benchmark.source} ${benchmarkStatistic(benchmark)}`;
