import { describe, expect, it } from 'vitest';
import { agreement, meetsThresholds, type RatedValue, reliabilityByQuestion } from './reliability.js';

type Pair = [RatedValue, RatedValue];
/** A 2×2 (or larger) table as pairs: [[a, b, count], ...]. */
const table = (cells: [RatedValue, RatedValue, number][]): Pair[] =>
  cells.flatMap(([a, b, count]) => Array.from({ length: count }, (): Pair => [a, b]));

// Wikipedia "Cohen's kappa", worked example: 50 proposals, both yes 20, A yes / B no 5, A no / B yes 10, both no 15.
const wikipedia = table([
  ['yes', 'yes', 20],
  ['yes', 'no', 5],
  ['no', 'yes', 10],
  ['no', 'no', 15],
]);
// DOMAIN.md §2.1 [C7]: high compliance, 94 % agreement, κ about 0.
const paradox = table([
  ['yes', 'yes', 94],
  ['yes', 'no', 3],
  ['no', 'yes', 3],
]);
// κ exactly 0.70: A and B each yes 5 / no 10 of 15; agreed 4 + 9 = 13; Σ aᶜbᶜ = 5·5 + 10·10 = 125;
// κ = (15·13 − 125) / (15² − 125) = 70 / 100.
const atSeventy = table([
  ['yes', 'yes', 4],
  ['yes', 'no', 1],
  ['no', 'yes', 1],
  ['no', 'no', 9],
]);

describe("agreement: percent, Cohen's κ, PABAK (DOMAIN.md §2.5 [C6][C7])", () => {
  it.each<[string, Pair[], { categories?: number }, ReturnType<typeof agreement>]>([
    [
      // po = 35/50 = 0.7; A yes 25/50, B yes 30/50: pe = 0.5·0.6 + 0.5·0.4 = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 0.4
      // (Wikipedia's result). PABAK = 2·0.7 − 1 = 0.4.
      'Wikipedia worked example',
      wikipedia,
      {},
      { n: 50, agreed: 35, percent: 0.7, kappa: 0.4, pabak: 0.4 },
    ],
    [
      // po = 0.94; A and B each yes 97, no 3: pe = 0.97² + 0.03² = 0.9418;
      // κ = (0.94 − 0.9418)/(1 − 0.9418) = −0.0018/0.0582 = −18/582 ≈ −0.0309; PABAK = 2·0.94 − 1 = 0.88.
      'kappa paradox: 94 % agreement, κ just below 0',
      paradox,
      {},
      { n: 100, agreed: 94, percent: 0.94, kappa: -18 / 582, pabak: 0.88 },
    ],
    [
      // po = 1; pe = 0.7² + 0.3² = 0.58; κ = 0.42/0.42 = 1; PABAK = 1.
      'perfect agreement over two categories',
      table([
        ['yes', 'yes', 7],
        ['no', 'no', 3],
      ]),
      {},
      { n: 10, agreed: 10, percent: 1, kappa: 1, pabak: 1 },
    ],
    [
      // Both raters said Yes every time: pe = 1·1 = 1, κ = 0/0 is undefined -> null; PABAK = (2·1 − 1)/1 = 1.
      'all pairs in one category',
      table([['yes', 'yes', 10]]),
      {},
      { n: 10, agreed: 10, percent: 1, kappa: null, pabak: 1 },
    ],
    [
      // po = 0; pe = 0.5·0.5 + 0.5·0.5 = 0.5; κ = −0.5/0.5 = −1; PABAK = (0 − 1)/1 = −1.
      'complete disagreement',
      table([
        ['yes', 'no', 5],
        ['no', 'yes', 5],
      ]),
      {},
      { n: 10, agreed: 0, percent: 0, kappa: -1, pabak: -1 },
    ],
    [
      // Yes/No/N/A scale. agreed 5 + 2 + 1 = 8 of 10, po = 0.8. A: yes 6, no 2, na 2; B: yes 6, no 3, na 1.
      // pe = (6·6 + 2·3 + 2·1)/100 = 0.44; κ = (0.8 − 0.44)/(1 − 0.44) = 0.36/0.56 = 9/14;
      // PABAK (k = 3) = (3·0.8 − 1)/2 = 0.7.
      'three categories',
      table([
        ['yes', 'yes', 5],
        ['no', 'no', 2],
        ['na', 'na', 1],
        ['yes', 'no', 1],
        ['na', 'yes', 1],
      ]),
      { categories: 3 },
      { n: 10, agreed: 8, percent: 0.8, kappa: 9 / 14, pabak: 0.7 },
    ],
  ])('%s', (_label, pairs, options, expected) => {
    const result = agreement(pairs, options);
    expect(result).toMatchObject({ n: expected.n, agreed: expected.agreed, kappa: expected.kappa });
    expect(result.percent).toBeCloseTo(expected.percent as number, 12);
    expect(result.pabak).toBeCloseTo(expected.pabak as number, 12);
  });

  it('uses the number of categories of the scale for PABAK', () => {
    // Wikipedia pairs on a Yes/No/N/A/Partial scale: PABAK = (4·0.7 − 1)/3 = 0.6; κ does not change.
    const result = agreement(wikipedia, { categories: 4 });
    expect(result.pabak).toBeCloseTo(0.6, 12);
    expect(result.kappa).toBe(0.4);
  });

  it('raises k to the categories actually seen', () => {
    // Three categories seen with the default k = 2 -> k = 3, PABAK 0.7 as above.
    const pairs = table([
      ['yes', 'yes', 5],
      ['no', 'no', 2],
      ['na', 'na', 1],
      ['yes', 'no', 1],
      ['na', 'yes', 1],
    ]);
    expect(agreement(pairs).pabak).toBeCloseTo(0.7, 12);
  });

  it('skips pairs where either rater has no answer', () => {
    const withGaps: Pair[] = [['yes', null], [null, 'no'], [null, null], ...wikipedia];
    expect(agreement(withGaps)).toEqual(agreement(wikipedia));
    expect(agreement([[null, 'yes']])).toEqual({ n: 0, agreed: 0, percent: null, kappa: null, pabak: null });
  });

  it('refuses a scale of fewer than two categories', () => {
    expect(() => agreement(wikipedia, { categories: 1 })).toThrow(
      'An answer scale has a whole number of categories, at least 2, not 1.',
    );
  });
});

describe('reliabilityByQuestion', () => {
  const items = (key: string, pairs: Pair[]) => pairs.map(([a, b]) => ({ key, a, b }));
  const all = [
    ...items('q1', wikipedia),
    ...items('q2', paradox),
    ...items('q3', table([['yes', 'yes', 12]])),
    ...items('q4', atSeventy),
    ...items('q5', [[null, 'yes']]),
  ];

  it('flags items with κ below 0.70 (the [C6] feedback rule), in question order', () => {
    const result = reliabilityByQuestion(all);
    expect(result.map((r) => [r.key, r.flagged])).toEqual([
      ['q1', true], // κ 0.4
      ['q2', true], // κ −0.03 despite 94 % agreement
      ['q3', false], // κ undefined: one category, 100 % agreement
      ['q4', false], // κ exactly 0.70 is not below 0.70
      ['q5', false], // nothing to compare
    ]);
    expect(result[3]?.kappa).toBe(0.7);
    expect(result[0]).toMatchObject({ key: 'q1', n: 50, agreed: 35, kappa: 0.4 });
  });

  it('takes another threshold', () => {
    const result = reliabilityByQuestion(all, { kappaMin: 0.3 });
    expect(result.filter((r) => r.flagged).map((r) => r.key)).toEqual(['q2']);
  });
});

describe('meetsThresholds (κ ≥ 0.75 and ≥ 95 % agreement by default [C6])', () => {
  it.each<[{ kappa: number | null; percent: number | null }, boolean]>([
    [{ kappa: 0.8, percent: 0.96 }, true],
    [{ kappa: 0.75, percent: 0.95 }, true], // both exactly on the bar
    [{ kappa: 0.74, percent: 0.99 }, false],
    [{ kappa: 0.9, percent: 0.94 }, false],
    [{ kappa: -18 / 582, percent: 0.94 }, false], // the paradox item
    [{ kappa: null, percent: 1 }, true], // one category throughout: judged on agreement
    [{ kappa: null, percent: null }, false], // nothing compared
  ])('%j -> %s', (result, expected) => {
    expect(meetsThresholds(result)).toBe(expected);
  });

  it('takes project thresholds, falling back to the defaults for the rest', () => {
    expect(meetsThresholds({ kappa: 0.62, percent: 0.96 }, { kappaMin: 0.6 })).toBe(true);
    expect(meetsThresholds({ kappa: 0.62, percent: 0.93 }, { kappaMin: 0.6 })).toBe(false);
    expect(meetsThresholds({ kappa: 0.8, percent: 0.9 }, { agreementMin: 0.9 })).toBe(true);
  });
});
