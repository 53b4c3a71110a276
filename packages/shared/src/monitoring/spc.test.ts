import { describe, expect, it } from 'vitest';
import {
  anhoejLimits,
  assuranceOf,
  binomialQuantile,
  computeSpc,
  RULE_LABELS,
  runsLimits,
  SPC_RULES,
  type SpcInputPoint,
  type SpcOptions,
  SWED_EISENHART_RUNS,
  swedEisenhartLimits,
} from './spc/index.js';

const series = (values: (number | null)[]): SpcInputPoint[] => values.map((value, i) => ({ period: `p${i}`, value }));
const ratios = (pairs: [number | null, number | null][]): SpcInputPoint[] =>
  pairs.map(([numerator, denominator], i) => ({ period: `p${i}`, numerator, denominator }));
const flagged = (result: ReturnType<typeof computeSpc>, rule: string) =>
  result.points.flatMap((p, i) => (p.signals.includes(rule as never) ? [i] : []));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

// Twenty points alternating around 0 with moving ranges of 1.128: CL 0, sigma 1.
const SIGMA_ONE = Array.from({ length: 20 }, (_, i) => (i % 2 ? 0.564 : -0.564));

describe('Anhøj limits (DOMAIN.md §1.1 table)', () => {
  it.each([
    [10, 6, 2],
    [12, 7, 3],
    [13, 7, 3],
    [24, 8, 8],
    [30, 8, 10],
    [50, 9, 19],
    [100, 10, 41],
  ])('n = %i: longest run %i, crossings %i', (n, run, crossings) => {
    expect(anhoejLimits(n)).toEqual({ run_limit: run, crossing_limit: crossings });
  });

  it.each([
    [0.05, 9, 2], // 1/512, 10/512, 46/512 = 0.0898
    [0.05, 16, 5], // 2517/65536 = 0.038, 6885/65536 = 0.105
    [0.05, 0, 0],
    [0.5, 10, 5],
  ])('qbinom(%f, %i, 0.5) = %i', (p, size, k) => {
    expect(binomialQuantile(p, size, 0.5)).toBe(k);
  });
});

describe('run charts', () => {
  // Baseline median 10 (11, 9, ... 9), then seven points at 12.
  const shift7 = series([11, 9, 11, 9, 11, 9, 11, 9, 11, 9, 12, 12, 12, 12, 12, 12, 12]);

  it('flags a 7-point shift with the IHI rules (>= 6), not with Anhøj at n = 17 (limit 7)', () => {
    const ihi = computeSpc(shift7, { chart: 'run', rules: 'ihi_run', baseline: { from: 0, to: 9 } });
    expect(ihi.points[0]?.cl).toBe(10);
    expect(ihi.points[16]?.ucl).toBeNull();
    expect(flagged(ihi, 'shift')).toEqual(range(10, 16));
    expect(ihi.summary).toMatchObject({
      useful_points: 17,
      longest_run: 7,
      crossings: 10,
      run_limit: 7,
      crossing_limit: 5,
      trial: true,
    });
    const anhoej = computeSpc(shift7, { chart: 'run', rules: 'anhoej', baseline: { from: 0, to: 9 } });
    expect(flagged(anhoej, 'shift')).toEqual([]);
  });

  it('flags a 7-point shift with Anhøj when n = 11 (limit 6)', () => {
    const r = computeSpc(series([11, 9, 11, 9, 12, 12, 12, 12, 12, 12, 12]), {
      chart: 'run',
      rules: 'anhoej',
      baseline: { from: 0, to: 3 },
    });
    expect(r.summary.run_limit).toBe(6);
    expect(flagged(r, 'shift')).toEqual(range(4, 10));
  });

  it('skips points on the median: they neither count nor break a run', () => {
    const values = [11, 9, 11, 9, 11, 9, 11, 9, 11, 9, 12, 12, 10, 12, 12, 10, 12, 12];
    const r = computeSpc(series(values), { chart: 'run', rules: 'ihi_run', baseline: { from: 0, to: 9 } });
    expect(r.summary.useful_points).toBe(16);
    expect(r.summary.longest_run).toBe(6);
    expect(flagged(r, 'shift')).toEqual([10, 11, 13, 14, 16, 17]);
    expect(r.points[12]?.signals).toEqual([]);
  });

  it.each([
    ['a rise of six points with a tie (five distinct) is a trend', [9, 2, 9, 2, 9, 2, 1, 2, 2, 3, 4, 5], range(6, 11)],
    ['a rise of five points with a tie (four distinct) is not', [9, 8, 9, 8, 9, 8, 1, 2, 2, 3, 4, 0], []],
  ])('IHI trend: %s', (_name, values, expected) => {
    const r = computeSpc(series(values), { chart: 'run', rules: 'ihi_run', direction: 'up' });
    expect(flagged(r, 'trend')).toEqual(expected);
    if (expected.length) expect(r.points[11]?.variation).toBe('improvement');
  });

  it('applies run-chart rules only from 10 useful points', () => {
    const r = computeSpc(series([1, 2, 3, 4, 5, 6, 7, 8, 9]), { chart: 'run', rules: 'ihi_run' });
    expect(r.points.every((p) => p.signals.length === 0)).toBe(true);
  });

  it('flags too few crossings (the runs test)', () => {
    const values = [1, 2, 1, 2, 1, 2, 9, 8, 9, 8, 9, 8];
    const r = computeSpc(series(values), { chart: 'run', rules: 'anhoej', direction: 'up' });
    expect(r.summary).toMatchObject({ crossings: 1, crossing_limit: 3 });
    expect(flagged(r, 'runs')).toEqual(range(0, 11));
    expect(r.points[0]?.variation).toBe('neutral');
  });
});

/** A run chart whose runs have these lengths, alternating 3 (above) and 1 (below): median 2 when balanced. */
const fromRuns = (lengths: number[]) => series(lengths.flatMap((len, k) => Array<number>(len).fill(k % 2 ? 1 : 3)));

describe('IHI run-chart rules as published (Perla, Provost & Murray, BMJ Qual Saf 2011;20:46-51)', () => {
  // Table 1 (after Swed & Eisenhart 1943): for n useful observations, fewer runs than the lower limit are too few
  // and more than the upper limit too many; the 5% two-sided bounds with n/2 points on each side of the median.
  it('the table of runs limits is the exact Swed-Eisenhart computation, row by row, for n = 10 to 60', () => {
    for (let n = 10; n <= 60; n++) {
      const exact = swedEisenhartLimits(n);
      expect([n, SWED_EISENHART_RUNS[n]]).toEqual([n, [exact?.lower, exact?.upper]]);
    }
  });

  it.each([
    // 5 + 5 points: 252 arrangements, P(R = 2) = 2/252 = 0.008, P(R <= 3) = 10/252 = 0.040 -> too few below 3.
    [10, 3, 9],
    // 10 + 10: C(20, 10) = 184756, P(R <= 6) = 3422/184756 = 0.0185, P(R <= 7) = 9470/184756 = 0.0513.
    [20, 7, 15],
    // 15 + 15: P(R <= 10) = 0.0199, P(R <= 11) = 0.0457.
    [30, 11, 21],
    [40, 15, 27],
    [60, 24, 38],
    // Beyond the table, the same computation.
    [61, 24, 39],
    [100, 41, 61],
  ])('n = %i: fewer than %i runs are too few, more than %i too many', (n, lower, upper) => {
    expect(runsLimits(n)).toEqual({ lower, upper });
  });

  it('has no limits below 2 useful observations', () => {
    expect(swedEisenhartLimits(1)).toBeNull();
    expect(runsLimits(0)).toBeNull();
  });

  it.each([
    ['6 runs: too few', [4, 3, 3, 4, 3, 3], 'runs'],
    ['7 runs: as expected', [3, 4, 3, 3, 2, 3, 2], null],
    ['15 runs: as expected', [2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 2], null],
    ['16 runs: too many', [2, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 2], 'too_many_runs'],
  ] as const)('rule 3 with 20 useful observations (limits 7 and 15): %s', (_name, lengths, rule) => {
    const input = fromRuns([...lengths]);
    expect(input).toHaveLength(20);
    const r = computeSpc(input, { chart: 'run', rules: 'ihi_run' });
    expect(r.points[0]?.cl).toBe(2);
    expect(r.summary).toMatchObject({ useful_points: 20, crossings: lengths.length - 1 });
    expect(flagged(r, 'runs')).toEqual(rule === 'runs' ? range(0, 19) : []);
    expect(flagged(r, 'too_many_runs')).toEqual(rule === 'too_many_runs' ? range(0, 19) : []);
    expect(r.points[0]?.variation).toBe(rule ? 'neutral' : 'common');
  });

  it('option ihiRunsTest: anhoej_crossings judges too few crossings only (the test before issue 30)', () => {
    const many = fromRuns([2, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 2]);
    const r = computeSpc(many, { chart: 'run', rules: 'ihi_run', ihiRunsTest: 'anhoej_crossings' });
    expect(flagged(r, 'too_many_runs')).toEqual([]);
    const few = computeSpc(fromRuns([4, 3, 3, 4, 3, 3]), {
      chart: 'run',
      rules: 'ihi_run',
      ihiRunsTest: 'anhoej_crossings',
    });
    // 5 crossings against qbinom(0.05, 19, 0.5) = 6.
    expect(few.summary).toMatchObject({ crossings: 5, crossing_limit: 6 });
    expect(flagged(few, 'runs')).toEqual(range(0, 19));
  });

  it('counts runs over useful observations only: points on the median neither make nor break a run', () => {
    // 20 useful points in 6 runs plus two points on the median (2) inside runs: still 6 runs, still too few.
    const values = [3, 3, 2, 3, 3, 1, 1, 1, 3, 3, 3, 1, 1, 2, 1, 1, 3, 3, 3, 1, 1, 1];
    const r = computeSpc(series(values), { chart: 'run', rules: 'ihi_run' });
    expect(r.points[0]?.cl).toBe(2);
    expect(r.summary).toMatchObject({ useful_points: 20, crossings: 5 });
    expect(flagged(r, 'runs')).toEqual(range(0, 21).filter((i) => i !== 2 && i !== 13));
  });

  it.each([
    ['6 points on one side is a shift (rule 1)', 6, range(10, 15)],
    ['5 points is not', 5, []],
  ])('%s', (_name, count, expected) => {
    const values = [11, 9, 11, 9, 11, 9, 11, 9, 11, 9, ...Array<number>(count).fill(12), 9];
    const r = computeSpc(series(values), { chart: 'run', rules: 'ihi_run', baseline: { from: 0, to: 9 } });
    expect(r.points[0]?.cl).toBe(10);
    expect(flagged(r, 'shift')).toEqual(expected);
  });

  // Rule 4 is judgement in the source; our criterion: more than 3 sigma from the median, sigma as the I chart of
  // the baseline estimates it. 9, 10, 9.5, 12, 11, 13, 12, 10, 9, 40, 12, 10: median 10.5 (none on it, 5 runs);
  // moving ranges 1, 0.5, 2.5, 1, 2, 1, 2, 1, 31, 28, 2 (mean 6.55, screened at 3.267 x 6.55 = 21.4, leaving
  // 13 / 9 = 1.444); sigma 1.444 / 1.128 = 1.280; 10.5 +/- 3.84: only 40 is astronomical. (Around the I chart's
  // mean, 13.125, which 40 pulls up, the 9s would fall below 9.28 as well.)
  const astro = series([9, 10, 9.5, 12, 11, 13, 12, 10, 9, 40, 12, 10]);

  it('flags an astronomical data point (rule 4) by the I-chart criterion, with its side', () => {
    const r = computeSpc(astro, { chart: 'run', rules: 'ihi_run', direction: 'up' });
    expect(r.points[0]?.cl).toBe(10.5);
    expect(r.points[0]?.ucl).toBeNull();
    expect(flagged(r, 'astronomical')).toEqual([9]);
    expect(r.points[9]?.variation).toBe('improvement');
    expect(r.points[10]?.variation).toBe('common');
  });

  it('option astronomicalPoint: off leaves rule 4 out; other rule sets and control charts never use it', () => {
    const off = computeSpc(astro, { chart: 'run', rules: 'ihi_run', astronomicalPoint: 'off' });
    expect(flagged(off, 'astronomical')).toEqual([]);
    expect(flagged(computeSpc(astro, { chart: 'run', rules: 'anhoej' }), 'astronomical')).toEqual([]);
    const i = computeSpc(astro, { chart: 'i', rules: 'ihi_run' });
    expect(flagged(i, 'astronomical')).toEqual([]);
    // The I chart's own limits sit around its mean (9.28 to 16.97) and catch the 9s as well.
    expect(flagged(i, 'outside_limits')).toEqual([0, 8, 9]);
  });

  it('finds no astronomical point against a flat baseline (no spread to judge by)', () => {
    const r = computeSpc(series([5, 5, 5, 5, 4, 6, 4, 6, 4, 6, 4, 6, 4, 6]), {
      chart: 'run',
      rules: 'ihi_run',
      baseline: { from: 0, to: 3 },
    });
    expect(r.summary.useful_points).toBe(10);
    expect(flagged(r, 'astronomical')).toEqual([]);
  });
});

describe('I chart (XmR): 10, 12, 11, 13, 12, 14, 30', () => {
  const cl = 102 / 7;
  // Moving ranges 2, 1, 2, 1, 2, 16: mean 4, screen at 13.068 drops 16, mR-bar = 8 / 5 = 1.6.
  const sigma = 1.6 / 1.128;
  const r = computeSpc(series([10, 12, 11, 13, 12, 14, 30]), {
    chart: 'i',
    rules: 'western_electric',
    direction: 'up',
  });
  const p0 = r.points[0]!;

  it('computes CL, screened mR-bar and the 1, 2, 3 sigma lines', () => {
    expect(p0.cl).toBeCloseTo(cl, 10);
    expect(((p0.ucl! - p0.cl!) / 3) * 1.128).toBeCloseTo(1.6, 10);
    expect(p0.ucl).toBeCloseTo(18.826748, 5);
    expect(p0.lcl).toBeCloseTo(10.316109, 5);
    expect(p0.ucl2).toBeCloseTo(cl + 2 * sigma, 10);
    expect(p0.lcl1).toBeCloseTo(cl - sigma, 10);
  });

  it('flags 30 (and 10) beyond the limits, and the Western Electric zone rules', () => {
    expect(flagged(r, 'outside_limits')).toEqual([0, 6]);
    expect(flagged(r, 'two_of_three')).toEqual([0, 2]);
    expect(flagged(r, 'four_of_five')).toEqual([0, 1, 2, 3, 4]);
    expect(r.points.map((p) => p.variation)).toEqual([
      'concern',
      'concern',
      'concern',
      'concern',
      'concern',
      'common',
      'improvement',
    ]);
    expect(r.summary).toMatchObject({ variation: 'improvement', trial: true, baseline_points: 7 });
  });

  it.each([
    ['up', 'improvement', 'concern'],
    ['down', 'concern', 'improvement'],
    ['neutral', 'neutral', 'neutral'],
  ] as const)('direction %s colours 30 as %s and 10 as %s', (direction, high, low) => {
    const d = computeSpc(series([10, 12, 11, 13, 12, 14, 30]), { chart: 'i', rules: 'anhoej', direction });
    expect(d.points[6]?.variation).toBe(high);
    expect(d.points[0]?.variation).toBe(low);
    expect(d.points[3]?.variation).toBe('common');
  });
});

describe('assurance (Making Data Count)', () => {
  it.each([
    ['up', 10, 'pass'],
    ['up', 20, 'fail'],
    ['up', 15, 'hit_and_miss'],
    ['down', 20, 'pass'],
    ['down', 10, 'fail'],
    ['down', 15, 'hit_and_miss'],
    ['neutral', 15, null],
    ['up', null, null],
  ] as const)('direction %s, target %s: %s', (direction, target, expected) => {
    const r = computeSpc(series([10, 12, 11, 13, 12, 14, 30]), { chart: 'i', rules: 'anhoej', direction, target });
    expect(r.summary.assurance).toBe(expected);
  });

  it('is null on a run chart (no limits)', () => {
    const r = computeSpc(series([1, 2, 3]), { chart: 'run', rules: 'anhoej', direction: 'up', target: 2 });
    expect(r.summary.assurance).toBeNull();
    expect(assuranceOf(5, null, null, 'up')).toBeNull();
  });
});

describe('P and P′ charts', () => {
  it('steps the limits with each denominator, clips them to [0, 1] and leaves gaps', () => {
    const r = computeSpc(
      ratios([
        [2, 4],
        [50, 100],
        [3, 0],
        [48, 96],
        [null, 10],
        [1, null],
      ]),
      { chart: 'p', rules: 'western_electric' },
    );
    const [small, large, zero, other, noNum, noDen] = r.points;
    expect(small).toMatchObject({ value: 0.5, cl: 0.5, ucl: 1, lcl: 0 });
    expect(large?.ucl).toBeCloseTo(0.65, 10);
    expect(large?.lcl).toBeCloseTo(0.35, 10);
    expect(other?.ucl).toBeCloseTo(0.5 + 3 * Math.sqrt(0.25 / 96), 10);
    expect(zero).toMatchObject({ value: null, gap: 'no denominator', ucl: null, signals: [] });
    expect(noNum).toMatchObject({ value: null, gap: 'no value' });
    expect(noDen).toMatchObject({ value: null, gap: 'no denominator' });
  });

  const huge = ratios([10000, 12000, 9000, 11000, 13000, 10000].map((num) => [num, 100000]));
  it('P′ widens limits that are too tight for huge denominators (overdispersion)', () => {
    const p = computeSpc(huge, { chart: 'p', rules: 'western_electric' });
    const pp = computeSpc(huge, { chart: 'pprime', rules: 'western_electric' });
    const pbar = 0.65 / 6;
    expect(p.points[0]?.ucl).toBeCloseTo(pbar + 3 * Math.sqrt((pbar * (1 - pbar)) / 100000), 10);
    expect(flagged(p, 'outside_limits')).toEqual([0, 1, 2, 4, 5]);
    // Equal denominators: sigma' = mean |delta p| / 1.128 = 0.024 / 1.128.
    expect(pp.points[0]?.ucl).toBeCloseTo(pbar + (3 * 0.024) / 1.128, 10);
    expect(pp.points[0]?.lcl).toBeCloseTo(pbar - (3 * 0.024) / 1.128, 10);
    expect(flagged(pp, 'outside_limits')).toEqual([]);
  });
});

describe("Laney P' and U': moving ranges of z broken at a missing period (qicharts2 qic.pprime / qic.uprime)", () => {
  // qicharts2: z_i <- (y[base] - cl) / stdev[base]; sigma_z <- mean(abs(diff(z_i)), na.rm = TRUE) / 1.128. A period
  // without a value is NA in y, so both ranges beside it are NA and dropped. Equal denominators make
  // sigma' = mean |delta y| / 1.128. Values 0.10, 0.12, (none), 0.09, 0.11; CL = 42000 / 400000 = 0.105.
  // Broken at the gap: ranges 0.02, 0.02 -> UCL 0.105 + 3 x 0.02 / 1.128 = 0.1582.
  // Jumped over (before issue 30): 0.02, 0.03, 0.02 -> UCL 0.105 + 3 x 0.0233 / 1.128 = 0.1671.
  it.each(['pprime', 'uprime'] as const)('%s', (chart) => {
    const r = computeSpc(
      ratios([
        [10000, 100000],
        [12000, 100000],
        [null, 100000],
        [9000, 100000],
        [11000, 100000],
      ]),
      { chart, rules: 'western_electric' },
    );
    expect(r.points[2]).toMatchObject({ value: null, gap: 'no value' });
    expect(r.points[0]?.cl).toBeCloseTo(0.105, 12);
    expect(r.points[0]?.ucl).toBeCloseTo(0.105 + (3 * 0.02) / 1.128, 10);
    expect(r.points[0]?.lcl).toBeCloseTo(0.105 - (3 * 0.02) / 1.128, 10);
    expect(r.points[0]?.ucl).not.toBeCloseTo(0.105 + (3 * (0.07 / 3)) / 1.128, 4);
  });

  it('closes up over an excluded period (qicharts2 drops it from the baseline before diff)', () => {
    const input = ratios([
      [10000, 100000],
      [12000, 100000],
      [50000, 100000],
      [9000, 100000],
      [11000, 100000],
    ]);
    input[2] = { ...input[2]!, excluded: true };
    const r = computeSpc(input, { chart: 'pprime', rules: 'western_electric' });
    expect(r.points[0]?.ucl).toBeCloseTo(0.105 + (3 * (0.07 / 3)) / 1.128, 10);
  });
});

describe('U, C, G and T charts', () => {
  it('U: CL = sum / exposure, stepped limits, LCL floored at 0', () => {
    const r = computeSpc(
      ratios([
        [1, 10],
        [0, 10],
        [2, 20],
        [1, 10],
      ]),
      { chart: 'u', rules: 'western_electric' },
    );
    expect(r.points[0]).toMatchObject({ cl: 0.08, lcl: 0 });
    expect(r.points[0]?.ucl).toBeCloseTo(0.08 + 3 * Math.sqrt(0.008), 10);
    expect(r.points[2]?.ucl).toBeCloseTo(0.08 + 3 * Math.sqrt(0.004), 10);
    expect(r.points[0]?.lcl1).toBe(0);
    expect(r.points[2]?.lcl1).toBeCloseTo(0.08 - Math.sqrt(0.004), 10);
  });

  it('C: sigma = sqrt(c-bar), LCL floored at 0', () => {
    const r = computeSpc(series([0, 1, 0, 2, 1, 0]), { chart: 'c', rules: 'western_electric' });
    expect(r.points[0]?.cl).toBeCloseTo(2 / 3, 10);
    expect(r.points[0]?.ucl).toBeCloseTo(2 / 3 + 3 * Math.sqrt(2 / 3), 10);
    expect(r.points[0]?.lcl).toBe(0);
  });

  it('G: limits from the mean, CL shown as the median', () => {
    const r = computeSpc(series([3, 10, 5, 20, 7]), { chart: 'g', rules: 'western_electric' });
    expect(r.points[0]?.cl).toBe(7);
    expect(r.points[0]?.ucl).toBeCloseTo(9 + 3 * Math.sqrt(90), 10);
    expect(r.points[0]?.lcl).toBe(0);
  });

  it('T: I chart on y^(1/3.6), back-transformed; non-positive times are gaps', () => {
    const r = computeSpc(series([8, 27, 8, 27, 0]), { chart: 't', rules: 'western_electric' });
    const t = [8, 27, 8, 27].map((y) => y ** (1 / 3.6));
    const centre = (t[0]! + t[1]!) / 2;
    const sigma = Math.abs(t[1]! - t[0]!) / 1.128;
    expect(r.points[0]?.cl).toBeCloseTo(centre ** 3.6, 8);
    expect(r.points[0]?.ucl).toBeCloseTo((centre + 3 * sigma) ** 3.6, 8);
    expect(r.points[0]?.lcl).toBeCloseTo((centre - 3 * sigma) ** 3.6, 8);
    expect(r.points[4]).toMatchObject({ value: null, gap: 'not positive' });
    // A negative lower limit on the transformed scale is floored at 0.
    expect(computeSpc(series([1, 100, 1, 100]), { chart: 't', rules: 'anhoej' }).points[0]?.lcl).toBe(0);
  });
});

describe('baseline, phases and exclusions', () => {
  const values = [10, 12, 10, 12, 10, 12, 10, 12, 10, 12, 10, 12, 20, 22, 20];
  // Baseline: mean 11, every moving range 2, sigma 2 / 1.128.
  const ucl = 11 + (3 * 2) / 1.128;

  it('freezes the limits on the baseline and extends them', () => {
    const r = computeSpc(series(values), { chart: 'i', rules: 'western_electric', baseline: { from: 0, to: 11 } });
    expect(r.points[14]?.cl).toBe(11);
    expect(r.points[14]?.ucl).toBeCloseTo(ucl, 10);
    expect(flagged(r, 'outside_limits')).toEqual([12, 13, 14]);
    expect(r.summary).toMatchObject({ baseline_points: 12, trial: true });
    const unfrozen = computeSpc(series(values), { chart: 'i', rules: 'western_electric' });
    expect(unfrozen.points[0]?.cl).toBeCloseTo(194 / 15, 10);
  });

  it('recomputes the limits after a phase start', () => {
    const r = computeSpc(series(values), { chart: 'i', rules: 'western_electric', phases: [12] });
    expect(r.points[11]).toMatchObject({ cl: 11, phase: 0 });
    expect(r.points[12]).toMatchObject({ phase: 1 });
    expect(r.points[12]?.cl).toBeCloseTo(62 / 3, 10);
    expect(r.points[12]?.ucl).toBeCloseTo(62 / 3 + (3 * 2) / 1.128, 10);
    expect(flagged(r, 'outside_limits')).toEqual([]);
  });

  it('draws excluded points but leaves them out of the limits and rules', () => {
    const input = series([10, 12, 10, 12, 100, 10, 12]);
    input[4] = { ...input[4]!, excluded: true };
    const r = computeSpc(input, { chart: 'i', rules: 'western_electric', direction: 'up' });
    expect(r.points[4]).toMatchObject({ value: 100, excluded: true, cl: 11, signals: [], variation: 'common' });
    expect(r.points[4]?.ucl).toBeCloseTo(ucl, 10);
    expect(r.summary.baseline_points).toBe(6);
  });

  it.each([
    [20, false],
    [19, true],
  ])('trial flag: %i baseline points -> %s', (count, trial) => {
    const r = computeSpc(series(SIGMA_ONE), { chart: 'i', rules: 'anhoej', baseline: { from: 0, to: count - 1 } });
    expect(r.summary.trial).toBe(trial);
  });
});

describe('control-chart rule sets (CL 0, sigma 1 baseline)', () => {
  const run = (tail: number[], rules: SpcOptions['rules']) =>
    computeSpc(series([...SIGMA_ONE, ...tail]), { chart: 'i', rules, baseline: { from: 0, to: 19 } });

  it('has CL 0 and sigma 1', () => {
    const r = run([], 'western_electric');
    expect(r.points[0]?.cl).toBeCloseTo(0, 10);
    expect(r.points[0]?.ucl1).toBeCloseTo(1, 10);
  });

  it.each([
    [
      'western_electric 2 of 3 beyond 2 sigma, same side',
      [2.5, 0.5, 2.5],
      'western_electric',
      'two_of_three',
      [20, 22],
    ],
    ['2 of 3 on opposite sides is not Western Electric', [2.5, 0, -2.5], 'western_electric', 'two_of_three', []],
    ['healthcare 2 of 3 may span both sides', [2.5, 0, -2.5], 'healthcare', 'two_of_three', [20, 22]],
    [
      'western_electric 4 of 5 beyond 1 sigma',
      [1.5, 1.5, 0.2, 1.5, 1.5],
      'western_electric',
      'four_of_five',
      [20, 21, 23, 24],
    ],
    ['3 of 5 beyond 1 sigma is not', [1.5, 0.2, 0.2, 1.5, 1.5], 'western_electric', 'four_of_five', []],
    ['8 in a row on one side', [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], 'western_electric', 'shift', range(19, 26)],
    // Nelson 1984, test 2: nine points in a row in zone C or beyond, on one side (Western Electric: eight).
    ['nelson 9 in a row on one side', [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], 'nelson', 'shift', range(19, 27)],
    ['nelson: 8 in a row is not', [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], 'nelson', 'shift', []],
    ['beyond 3 sigma', [3.5, -3.5], 'western_electric', 'outside_limits', [20, 21]],
    ['nelson 6 rising', [-2, -1.5, -1, -0.5, 0, 0.5], 'nelson', 'trend', range(20, 25)],
    ['healthcare 6 rising', [-2, -1.5, -1, -0.5, 0, 0.5], 'healthcare', 'trend', range(20, 25)],
    [
      'nelson 8 beyond 1 sigma on both sides',
      [1.5, -1.5, 1.5, -1.5, 1.5, -1.5, 1.5, -1.5],
      'nelson',
      'eight_outside_1sigma',
      range(20, 27),
    ],
    ['nelson 15 within 1 sigma', [], 'nelson', 'fifteen_within_1sigma', range(0, 19)],
    ['healthcare hugging', [], 'healthcare', 'hugging', range(0, 19)],
  ] as const)('%s', (_name, tail, rules, rule, expected) => {
    expect(flagged(run([...tail], rules), rule)).toEqual(expected);
  });

  it.each([
    [14, range(0, 13)],
    [13, []],
  ])('Nelson alternation: %i alternating points -> %j', (count, expected) => {
    const values = Array.from({ length: count }, (_, i) => (i % 2 ? 3 : 1));
    const r = computeSpc(series(values), { chart: 'i', rules: 'nelson' });
    expect(flagged(r, 'alternation')).toEqual(expected);
    expect(flagged(computeSpc(series(values), { chart: 'i', rules: 'western_electric' }), 'alternation')).toEqual([]);
  });

  it('labels every rule', () => {
    for (const rule of SPC_RULES) expect(RULE_LABELS[rule]).toMatch(/\w/);
  });
});
