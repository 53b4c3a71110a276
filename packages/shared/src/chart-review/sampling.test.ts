import { describe, expect, it } from 'vitest';
import {
  ALL_CASES_STRATUM,
  allocateFixed,
  DuplicateCaseRefError,
  drawSample,
  type EligibleCase,
  jcSampleSize,
  newSeed,
  nextReplacement,
  planSampleSize,
  SAMPLING_ALGORITHM,
  type SamplingPlan,
  samplingPlanSchema,
  seededRandom,
  UNSPECIFIED_STRATUM,
} from './sampling.js';

const refs = (n: number, prefix = 'E', unit: string | null = null): EligibleCase[] =>
  Array.from({ length: n }, (_, i) => ({ ref: `${prefix}${String(i + 1).padStart(2, '0')}`, unit }));
const selectedRefs = (sample: ReturnType<typeof drawSample>, stratum?: string) =>
  sample.ranked.filter((c) => c.selected && (stratum === undefined || c.stratum === stratum)).map((c) => c.ref);
const order = (sample: ReturnType<typeof drawSample>, stratum: string) =>
  sample.ranked.filter((c) => c.stratum === stratum).map((c) => c.ref);

describe('Joint Commission sample size, 2023+ discharges (DOMAIN.md §2.1 [C1])', () => {
  it.each([
    [0, 0],
    [1, 1],
    [50, 50], // < 51: all cases
    [51, 51], // 51..254: 51
    [254, 51],
    [255, 51], // 255..509: 20 % rounded up; 255 / 5 = 51
    [256, 52], // 256 / 5 = 51.2 -> 52
    [509, 102], // 509 / 5 = 101.8 -> 102
    [510, 102], // >= 510: 102
    [20_000, 102],
  ])('population %i -> %i', (population, size) => {
    expect(jcSampleSize(population)).toBe(size);
  });

  it('rejects a population that is not a whole number of cases', () => {
    expect(() => jcSampleSize(-1)).toThrow('The population must be a whole number of cases, not -1.');
    expect(() => jcSampleSize(2.5)).toThrow('not 2.5');
  });
});

describe('planSampleSize', () => {
  it.each<[string, SamplingPlan, number, number]>([
    ['JC table', { method: 'jc_table' }, 300, 60], // 300 / 5 = 60
    ['fixed n', { method: 'fixed', n: 30 }, 100, 30],
    ['fixed n above the population', { method: 'fixed', n: 30 }, 20, 20],
    ['percent, rounded up', { method: 'percent', pct: 5 }, 30, 2], // 5 % of 30 = 1.5 -> 2
    ['percent, exact in decimals', { method: 'percent', pct: 4.4 }, 750, 33], // 0.044 · 750 = 33 (float: 33.00000000000001)
    ['percent raised to min', { method: 'percent', pct: 5, min: 5 }, 30, 5], // 2 -> min 5
    ['percent lowered to max', { method: 'percent', pct: 5, max: 40 }, 1000, 40], // 50 -> max 40
    ['percent: min, then the population cap', { method: 'percent', pct: 5, min: 10 }, 6, 6], // 1 -> 10 -> 6
    ['percent of nothing', { method: 'percent', pct: 5, min: 3 }, 0, 0],
    ['all', { method: 'all' }, 37, 37],
  ])('%s', (_label, plan, population, size) => {
    expect(planSampleSize(plan, population)).toBe(size);
  });
});

describe('samplingPlanSchema', () => {
  const message = (input: unknown) => samplingPlanSchema.safeParse(input).error?.issues[0]?.message;

  it('accepts every method, with or without stratification', () => {
    expect(samplingPlanSchema.parse({ method: 'jc_table', stratify_by_unit: true })).toEqual({
      method: 'jc_table',
      stratify_by_unit: true,
    });
    expect(samplingPlanSchema.parse({ method: 'fixed', n: 10 })).toEqual({ method: 'fixed', n: 10 });
    expect(samplingPlanSchema.parse({ method: 'percent', pct: 2.5, min: 5, max: 5 })).toMatchObject({ pct: 2.5 });
    expect(samplingPlanSchema.parse({ method: 'all' })).toEqual({ method: 'all' });
  });

  it.each([
    [{ method: 'fixed', n: 0 }, 'The sample size is a whole number from 1 to 10,000.'],
    [{ method: 'fixed', n: 1.5 }, 'The sample size is a whole number from 1 to 10,000.'],
    [{ method: 'fixed', n: 10_001 }, 'The sample size is a whole number from 1 to 10,000.'],
    [{ method: 'fixed' }, 'The sample size is a whole number from 1 to 10,000.'],
    [{ method: 'percent', pct: 0 }, 'The percentage is a number above 0 and at most 100.'],
    [{ method: 'percent', pct: 100.5 }, 'The percentage is a number above 0 and at most 100.'],
    [{ method: 'percent', pct: 5, min: 0 }, 'The minimum sample size is a whole number from 1 to 10,000.'],
    [{ method: 'percent', pct: 5, max: 2.5 }, 'The maximum sample size is a whole number from 1 to 10,000.'],
    [{ method: 'percent', pct: 5, min: 20, max: 10 }, 'The minimum sample size cannot be larger than the maximum.'],
    [{ method: 'random' }, 'Choose a sampling method: Joint Commission table, fixed number, percentage or all cases.'],
    [{ method: 'all', stratify_by_unit: 'yes' }, 'Choose whether to sample each unit separately.'],
  ])('rejects %j', (input, expected) => {
    expect(message(input)).toBe(expected);
  });
});

describe('seededRandom and newSeed', () => {
  it('reproduces the published cyrb128 + sfc32 sequence', () => {
    // Pinned from an independent Python port of bryc's cyrb128 and sfc32 (github.com/bryc/code, jshash/PRNGs.md);
    // a change to the generator must fail here and bump SAMPLING_ALGORITHM.
    const random = seededRandom('chart-review');
    const first = Array.from({ length: 5 }, random);
    expect(first).toEqual([
      0.3427471253089607, 0.9924923768267035, 0.9496890944428742, 0.8884332196321338, 0.9371826127171516,
    ]);
    expect(SAMPLING_ALGORITHM).toBe('sfc32-cyrb128-fisher-yates-v1');
  });

  it('gives the same sequence for the same seed and another one for another seed', () => {
    const a = Array.from({ length: 20 }, seededRandom('2026-03'));
    expect(Array.from({ length: 20 }, seededRandom('2026-03'))).toEqual(a);
    expect(Array.from({ length: 20 }, seededRandom('2026-04'))).not.toEqual(a);
    for (const x of a) expect(x >= 0 && x < 1).toBe(true);
  });

  it('makes fresh 128-bit hex seeds', () => {
    const a = newSeed();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newSeed()).not.toBe(a);
  });
});

describe('drawSample', () => {
  const ten = refs(10);
  const plan: SamplingPlan = { method: 'fixed', n: 4 };

  it('ranks every case by a seeded Fisher–Yates shuffle and selects the first n (pinned)', () => {
    // Pinned from the independent Python port (see above): shuffle of E01..E10, seed '2026-03-surgery'.
    const sample = drawSample({ cases: ten, plan, seed: '2026-03-surgery' });
    expect(order(sample, ALL_CASES_STRATUM)).toEqual([
      'E07',
      'E04',
      'E02',
      'E06',
      'E10',
      'E03',
      'E05',
      'E01',
      'E08',
      'E09',
    ]);
    expect(sample.ranked.map((c) => c.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(selectedRefs(sample)).toEqual(['E07', 'E04', 'E02', 'E06']);
    expect(sample).toMatchObject({
      seed: '2026-03-surgery',
      algorithm: SAMPLING_ALGORITHM,
      size: 4,
      byStratum: [{ stratum: ALL_CASES_STRATUM, population: 10, size: 4 }],
    });
  });

  it('gives the same sample for the same list in another order', () => {
    const a = drawSample({ cases: ten, plan, seed: 's1' });
    const b = drawSample({ cases: [...ten].reverse(), plan, seed: 's1' });
    expect(b).toEqual(a);
  });

  it('gives another ranking for another seed', () => {
    const a = drawSample({ cases: refs(30), plan, seed: 's1' });
    const b = drawSample({ cases: refs(30), plan, seed: 's2' });
    expect(order(b, ALL_CASES_STRATUM)).not.toEqual(order(a, ALL_CASES_STRATUM));
  });

  it('refuses a list that holds a case twice', () => {
    const cases = [...ten, { ref: 'E03', unit: 'ICU' }, { ref: 'E05', unit: null }, { ref: 'E05', unit: null }];
    const error = (() => {
      try {
        drawSample({ cases, plan, seed: 's' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(DuplicateCaseRefError);
    expect((error as DuplicateCaseRefError).message).toBe(
      'The eligible case list has 2 case references more than once. Each case may appear only once.',
    );
    expect((error as DuplicateCaseRefError).refs).toEqual(['E03', 'E05']);
    expect(() => drawSample({ cases: [...ten, { ref: 'E01', unit: null }], plan, seed: 's' })).toThrow(
      'The eligible case list has one case reference twice. Each case may appear only once.',
    );
  });

  it('needs a seed', () => {
    expect(() => drawSample({ cases: ten, plan, seed: '' })).toThrow('A sample needs a seed.');
  });

  it('returns an empty sample for an empty list', () => {
    expect(drawSample({ cases: [], plan, seed: 's' })).toMatchObject({ ranked: [], size: 0, byStratum: [] });
  });
});

describe('stratified draws', () => {
  const cases = [...refs(4, 'A', 'ICU'), ...refs(3, 'B', 'Ward 4'), { ref: 'C01', unit: null }];

  it('ranks each unit separately, with a generator seeded by seed|unit (pinned)', () => {
    const sample = drawSample({ cases, plan: { method: 'percent', pct: 50, stratify_by_unit: true }, seed: 'q1' });
    // Pinned from the Python port: seeds 'q1|ICU' and 'q1|Ward 4'.
    expect(order(sample, 'ICU')).toEqual(['A04', 'A01', 'A02', 'A03']);
    expect(order(sample, 'Ward 4')).toEqual(['B03', 'B01', 'B02']);
    expect(order(sample, UNSPECIFIED_STRATUM)).toEqual(['C01']);
    expect(sample.ranked.filter((c) => c.stratum === 'ICU').map((c) => c.rank)).toEqual([1, 2, 3, 4]);
    // 50 % rounded up per stratum: ICU 4 -> 2, Ward 4 3 -> 2, Unspecified 1 -> 1.
    expect(sample.byStratum).toEqual([
      { stratum: 'ICU', population: 4, size: 2 },
      { stratum: UNSPECIFIED_STRATUM, population: 1, size: 1 },
      { stratum: 'Ward 4', population: 3, size: 2 },
    ]);
    expect(sample.size).toBe(5);
    expect(selectedRefs(sample)).toEqual(['A04', 'A01', 'C01', 'B03', 'B01']);
  });

  it('keeps one unit ranks when another unit changes', () => {
    const plan: SamplingPlan = { method: 'all', stratify_by_unit: true };
    const before = drawSample({ cases, plan, seed: 'q1' });
    const after = drawSample({ cases: [...cases, { ref: 'B04', unit: 'Ward 4' }], plan, seed: 'q1' });
    expect(order(after, 'ICU')).toEqual(order(before, 'ICU'));
  });

  it('splits a fixed n over units in proportion and sums to n', () => {
    const big = [...refs(50, 'A', 'ICU'), ...refs(30, 'B', 'Ward 4'), ...refs(20, 'C', 'ED')];
    const sample = drawSample({ cases: big, plan: { method: 'fixed', n: 10, stratify_by_unit: true }, seed: 'x' });
    // 10 · 50/100 = 5, 10 · 30/100 = 3, 10 · 20/100 = 2 (strata in name order: ED, ICU, Ward 4).
    expect(sample.byStratum.map((s) => [s.stratum, s.population, s.size])).toEqual([
      ['ED', 20, 2],
      ['ICU', 50, 5],
      ['Ward 4', 30, 3],
    ]);
    expect(sample.size).toBe(10);
    expect(sample.ranked.filter((c) => c.selected)).toHaveLength(10);
    expect(sample.byStratum.reduce((a, s) => a + s.population, 0)).toBe(big.length);
  });
});

describe('allocateFixed (largest remainder, at least one per unit when n >= units)', () => {
  const strata = (...populations: number[]) => populations.map((population, i) => ({ stratum: `U${i}`, population }));

  it.each([
    // quotas 6, 2.5, 1.5 -> floors 6, 2, 1 (9); the last seat: remainders tie at .5, the larger unit (25) wins.
    [10, [60, 25, 15], [6, 3, 1]],
    // quotas 9.80, 0.098, 0.098 -> floors 9, 0, 0; seat to .80 -> 10, 0, 0; two units at 0 each take one from
    // the largest -> 8, 1, 1.
    [10, [100, 1, 1], [8, 1, 1]],
    // n = 2 < 3 units: no minimum; quotas 1.96, .0196, .0196 -> 1, 0, 0, seat to .96 -> 2, 0, 0.
    [2, [100, 1, 1], [2, 0, 0]],
    // n capped at the 5 cases there are.
    [100, [3, 2], [3, 2]],
    // an empty unit gets nothing; quotas 3.33, 0, 6.67 -> 3, 0, 6, seat to .67 -> 3, 0, 7.
    [10, [10, 0, 20], [3, 0, 7]],
    [5, [0, 0], [0, 0]],
    // quotas 2·1/6 = 1/3, 1/3, 2·4/6 = 1 1/3 -> 0, 0, 1; the remainders tie at exactly 1/3 (in floating point
    // 8/6 − 1 < 2/6), so the seat goes to the larger unit -> 0, 0, 2 (n = 2 < 3 units: no minimum).
    [2, [1, 1, 4], [0, 0, 2]],
  ])('n = %i over %j -> %j', (n, populations, sizes) => {
    expect(allocateFixed(n, strata(...populations))).toEqual(sizes);
  });
});

describe('nextReplacement', () => {
  // Ranking E07, E04, E02, E06 | E10, E03, E05, E01, E08, E09 (pinned above).
  const sample = drawSample({ cases: refs(10), plan: { method: 'fixed', n: 4 }, seed: '2026-03-surgery' });

  it('takes the next ranked unselected case, skipping those already excluded or taken', () => {
    expect(nextReplacement(sample.ranked, ALL_CASES_STRATUM, new Set(['E07']))?.ref).toBe('E10');
    expect(nextReplacement(sample.ranked, ALL_CASES_STRATUM, new Set(['E07', 'E10']))?.ref).toBe('E03');
    expect(nextReplacement(sample.ranked, ALL_CASES_STRATUM, new Set(['E10', 'E03', 'E05']))).toMatchObject({
      ref: 'E01',
      rank: 8,
    });
  });

  it('returns null when the stratum has no case left', () => {
    const rest = sample.ranked.filter((c) => !c.selected).map((c) => c.ref);
    expect(nextReplacement(sample.ranked, ALL_CASES_STRATUM, new Set(rest))).toBeNull();
    expect(nextReplacement(sample.ranked, 'ICU', new Set())).toBeNull();
  });

  it('stays within the stratum of the excluded case', () => {
    const cases = [...refs(4, 'A', 'ICU'), ...refs(3, 'B', 'Ward 4')];
    const strat = drawSample({ cases, plan: { method: 'fixed', n: 2, stratify_by_unit: true }, seed: 'q1' });
    // One per unit; ICU ranks A04, A01, A02, A03 -> A01 replaces A04; Ward 4 ranks B03, B01, B02 -> B01.
    expect(selectedRefs(strat)).toEqual(['A04', 'B03']);
    expect(nextReplacement(strat.ranked, 'ICU', new Set(['A04']))?.ref).toBe('A01');
    expect(nextReplacement(strat.ranked, 'Ward 4', new Set(['B03']))?.ref).toBe('B01');
  });
});
