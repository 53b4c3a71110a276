import type { Series, SeriesPoint } from '@portal/shared';

/** Factories of SPC series for the chart tests (contracts of monitoring-measures.ts). */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function point(index: number, overrides: Partial<SeriesPoint> = {}): SeriesPoint {
  const year = 2024 + Math.floor(index / 12);
  const month = index % 12;
  return {
    period: `${year}-${String(month + 1).padStart(2, '0')}-01`,
    label: `${MONTHS[month]} ${year}`,
    rows: 100,
    numerator: 10,
    denominator: 100,
    value: 10,
    gap: null,
    excluded: false,
    provisional: false,
    phase: 0,
    cl: 10,
    ucl: 19,
    lcl: 1,
    ucl2: 16,
    lcl2: 4,
    ucl1: 13,
    lcl1: 7,
    signals: [],
    variation: 'common',
    target: null,
    ...overrides,
  };
}

export function series(points: SeriesPoint[], overrides: Partial<Series> = {}): Series {
  return {
    measure_id: 9,
    chart: 'p',
    rule_profile: 'western_electric',
    grain: 'month',
    unit_label: '%',
    multiplier: 100,
    direction: 'up',
    stratum: null,
    strata: [],
    points,
    summary: {
      variation: 'common',
      assurance: null,
      trial: false,
      baseline_points: points.length,
      useful_points: points.length,
      longest_run: null,
      crossings: null,
      run_limit: null,
      crossing_limit: null,
    },
    benchmarks: [],
    annotations: [],
    phases: [],
    formula_version: 1,
    formula_hash: 'abc',
    dataset_version: 1,
    computed_at: '2026-03-01T10:00:00Z',
    compute_ms: 3,
    empty_reason: null,
    ...overrides,
  };
}

/** n points numbered from Jan 2024. */
export const points = (n: number, make: (i: number) => Partial<SeriesPoint> = () => ({})) =>
  Array.from({ length: n }, (_, i) => point(i, make(i)));
