import { computeSpc, nextPeriod, type Target } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import type { PeriodValue } from './measure-values.js';
import { buildSeries, EMPTY_REASONS, type SeriesBuildInput, targetAt } from './series.build.js';

/** Monthly periods from `from`, each [numerator, denominator] (value = the ratio, as the evaluator gives it). */
function months(from: string, values: readonly (readonly [number | null, number | null])[]): PeriodValue[] {
  let period = from;
  return values.map(([numerator, denominator]) => {
    const out = {
      period,
      rows: 3,
      numerator,
      denominator,
      value: numerator !== null && denominator ? numerator / denominator : null,
    };
    period = nextPeriod(period, 'month');
    return out;
  });
}

/** Monthly periods of a value-only measure (continuous, count). */
const valueMonths = (from: string, values: readonly (number | null)[]) =>
  months(
    from,
    values.map(() => [null, null] as const),
  ).map((p, i) => ({ ...p, value: values[i] ?? null }));

const input = (over: Partial<SeriesBuildInput>): SeriesBuildInput => ({
  periods: [],
  grain: 'month',
  type: 'rate',
  chart: 'u',
  ruleProfile: 'anhoej',
  direction: 'down',
  multiplier: 1000,
  unitLabel: 'per 1,000 patient days',
  targets: [],
  benchmarks: [],
  annotations: [],
  phases: [],
  baseline: null,
  today: new Date('2026-06-15T10:00:00Z'),
  measureId: 7,
  formulaVersion: 2,
  formulaHash: 'abc',
  datasetVersion: 4,
  stratum: null,
  strata: [],
  ...over,
});

const varying = [
  [5, 100],
  [7, 120],
  [4, 90],
  [6, 110],
  [5, 95],
  [8, 130],
] as const;

describe('buildSeries: scaling by the multiplier', () => {
  const cases = [
    {
      name: 'a proportion on a P chart with multiplier 100 reads in percent',
      over: { type: 'proportion', chart: 'p', multiplier: 100 },
      periods: months('2025-01-01', varying),
      raw: { chart: 'p' as const, values: varying.map(([n, d]) => ({ numerator: n, denominator: d })) },
      firstValue: 5,
    },
    {
      name: 'a rate on a U chart with multiplier 1000 reads per 1,000',
      over: { type: 'rate', chart: 'u', multiplier: 1000 },
      periods: months('2025-01-01', varying),
      raw: { chart: 'u' as const, values: varying.map(([n, d]) => ({ numerator: n, denominator: d })) },
      firstValue: 50,
    },
    {
      name: 'a ratio on a run chart plots the ratio itself, multiplied',
      over: { type: 'ratio', chart: 'run', multiplier: 10 },
      periods: months('2025-01-01', varying),
      raw: { chart: 'run' as const, values: varying.map(([n, d]) => ({ value: n / d })) },
      firstValue: 0.5,
    },
    {
      name: 'a continuous measure on an I chart with multiplier 1 stays as it is',
      over: { type: 'continuous', chart: 'i', multiplier: 1 },
      periods: valueMonths('2025-01-01', [42, 38, 45, 40, 39, 44]),
      raw: { chart: 'i' as const, values: [42, 38, 45, 40, 39, 44].map((value) => ({ value })) },
      firstValue: 42,
    },
  ] as const;

  for (const c of cases) {
    it(c.name, () => {
      const multiplier = c.over.multiplier;
      const series = buildSeries(input({ ...c.over, periods: [...c.periods] }));
      const raw = computeSpc(
        c.raw.values.map((v, i) => ({ period: c.periods[i]!.period, ...v })),
        { chart: c.raw.chart, rules: 'anhoej', direction: 'down' },
      );
      expect(series.points[0]!.value).toBeCloseTo(c.firstValue, 9);
      series.points.forEach((p, i) => {
        const r = raw.points[i]!;
        for (const key of ['value', 'cl', 'ucl', 'lcl', 'ucl2', 'lcl2', 'ucl1', 'lcl1'] as const) {
          if (r[key] === null) expect(p[key], `${key} of point ${i}`).toBeNull();
          else expect(p[key], `${key} of point ${i}`).toBeCloseTo((r[key] as number) * multiplier, 9);
        }
      });
      expect(series.multiplier).toBe(multiplier);
      expect(series.points[0]).toMatchObject({ label: 'Jan 2025', rows: 3, provisional: false, excluded: false });
    });
  }

  it('keeps numerator and denominator unscaled and tidies float noise (0.07 * 100 is 7)', () => {
    const series = buildSeries(
      input({ type: 'proportion', chart: 'p', multiplier: 100, periods: months('2025-01-01', [[7, 100]]) }),
    );
    expect(series.points[0]).toMatchObject({ numerator: 7, denominator: 100, value: 7 });
  });
});

describe('buildSeries: provisional and excluded periods', () => {
  it('marks the period holding today, and later ones, provisional and left out of the limits', () => {
    const periods = months('2026-02-01', [
      [2, 1000],
      [3, 1000],
      [4, 1000],
      [5, 1000],
      [40, 1000],
      [50, 1000],
    ]);
    const series = buildSeries(input({ periods }));
    expect(series.points.map((p) => [p.period, p.provisional, p.excluded])).toEqual([
      ['2026-02-01', false, false],
      ['2026-03-01', false, false],
      ['2026-04-01', false, false],
      ['2026-05-01', false, false],
      ['2026-06-01', true, true],
      ['2026-07-01', true, true],
    ]);
    // CL from Feb-May only: 14 / 4000 per patient day = 3.5 per 1,000.
    expect(series.points[0]!.cl).toBeCloseTo(3.5, 9);
    expect(series.points[4]!.signals).toEqual([]);
  });

  it('excludes the period of a data-issue annotation from the limits, not other annotations', () => {
    const periods = months('2025-01-01', [
      [2, 1000],
      [90, 1000],
      [4, 1000],
      [3, 1000],
    ]);
    const annotation = (id: number, day: string, exclude: boolean) => ({
      id,
      period_start: day,
      kind: exclude ? ('data_issue' as const) : ('event' as const),
      text: 'note',
      exclude_from_limits: exclude,
    });
    const series = buildSeries(
      input({ periods, annotations: [annotation(1, '2025-02-14', true), annotation(2, '2025-03-01', false)] }),
    );
    expect(series.points.map((p) => p.excluded)).toEqual([false, true, false, false]);
    expect(series.points[1]!.cl).toBeCloseTo(3, 9);
    expect(series.annotations).toHaveLength(2);
  });
});

describe('buildSeries: phases, baseline and targets', () => {
  const twelve = months('2025-01-01', [
    ...Array.from({ length: 6 }, () => [6, 1000] as const),
    ...Array.from({ length: 6 }, () => [2, 1000] as const),
  ]);

  it('starts a phase at the period of its start date: each phase has its own centre line', () => {
    const phase = { id: 1, start_period: '2025-07-20', label: 'Bundle', reason: 'intervention' as const };
    const series = buildSeries(input({ periods: twelve, phases: [phase] }));
    expect(series.points.map((p) => p.phase)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    expect(series.points[0]!.cl).toBeCloseTo(6, 9);
    expect(series.points[11]!.cl).toBeCloseTo(2, 9);
    expect(series.phases).toEqual([phase]);
  });

  it('ignores a phase starting at or before the first period (one phase)', () => {
    const phase = { id: 1, start_period: '2024-01-01', label: 'Old', reason: 'other' as const };
    expect(new Set(buildSeries(input({ periods: twelve, phases: [phase] })).points.map((p) => p.phase))).toEqual(
      new Set([0]),
    );
  });

  it('turns baseline dates into periods: limits come from the baseline and are extended', () => {
    const series = buildSeries(input({ periods: twelve, baseline: { from: '2025-01-10', to: '2025-04-30' } }));
    expect(series.summary.baseline_points).toBe(4);
    expect(series.points[11]!.cl).toBeCloseTo(6, 9);
  });

  const targets: Target[] = [
    { id: 1, value: 3, effective_from: '2025-03-01', kind: 'target' },
    { id: 2, value: 9, effective_from: '2025-04-01', kind: 'threshold' },
    { id: 3, value: 2.5, effective_from: '2025-08-15', kind: 'target' },
  ];
  const targetCases = [
    ['2025-02-01', null],
    ['2025-03-01', 3],
    ['2025-07-01', 3],
    ['2025-08-01', 2.5],
    ['2025-12-01', 2.5],
  ] as const;
  for (const [period, expected] of targetCases) {
    it(`gives ${period} the latest target of kind 'target' in effect (${expected})`, () => {
      expect(targetAt(targets, period, 'month')?.value ?? null).toBe(expected);
      const series = buildSeries(input({ periods: twelve, targets }));
      expect(series.points.find((p) => p.period === period)!.target).toBe(expected);
    });
  }

  it('reads assurance against the target on the shown scale', () => {
    const flat = months(
      '2025-01-01',
      Array.from({ length: 12 }, () => [3, 1000] as const),
    );
    const target = (value: number): Target[] => [{ id: 1, value, effective_from: '2025-01-01', kind: 'target' }];
    // Limits around 3 per 1,000 are about 0 to 8.2: a target of 10 is always met by a falling measure.
    expect(buildSeries(input({ periods: flat, targets: target(10) })).summary.assurance).toBe('pass');
    expect(buildSeries(input({ periods: flat, targets: target(3) })).summary.assurance).toBe('hit_and_miss');
  });
});

describe('buildSeries: gaps and empty series', () => {
  it('plots a ratio measure on an I chart as the ratio; a zero denominator is a gap', () => {
    const series = buildSeries(
      input({
        type: 'rate',
        chart: 'i',
        multiplier: 1000,
        periods: months('2025-01-01', [
          [2, 1000],
          [1, 0],
          [3, 1000],
        ]),
      }),
    );
    expect(series.points.map((p) => [p.value, p.gap])).toEqual([
      [2, null],
      [null, 'no denominator'],
      [3, null],
    ]);
  });

  const emptyCases: [string, Partial<SeriesBuildInput>, string][] = [
    ['no dataset', { emptyReason: EMPTY_REASONS.noDataset }, EMPTY_REASONS.noDataset],
    ['incomplete formulas', { emptyReason: EMPTY_REASONS.noFormulas }, EMPTY_REASONS.noFormulas],
    ['no rows', { periods: [] }, EMPTY_REASONS.noRows],
  ];
  for (const [name, over, reason] of emptyCases) {
    it(`says why there are no points: ${name}`, () => {
      const series = buildSeries(input({ periods: months('2025-01-01', [[1, 10]]), ...over }));
      expect(series.points).toEqual([]);
      expect(series.empty_reason).toBe(reason);
      expect(series.summary).toMatchObject({ variation: null, assurance: null, useful_points: 0 });
    });
  }

  it('has no empty reason when there are points, and carries the provenance', () => {
    const series = buildSeries(
      input({ periods: months('2025-01-01', [[1, 10]]), stratum: 'North', strata: ['North'] }),
    );
    expect(series).toMatchObject({
      empty_reason: null,
      measure_id: 7,
      formula_version: 2,
      formula_hash: 'abc',
      dataset_version: 4,
      stratum: 'North',
      strata: ['North'],
      chart: 'u',
      rule_profile: 'anhoej',
      grain: 'month',
    });
  });
});
