import { describe, expect, it } from 'vitest';
import {
  allOrNoneRate,
  type QuestionForScore,
  questionCompliance,
  type ScoredAnswer,
  scoreCase,
  wilsonInterval,
} from './scoring.js';

// q1 and q3 are the critical (all-or-none) items.
const questions: QuestionForScore[] = [
  { key: 'q1', weight: 2, critical: true },
  { key: 'q2', weight: 1, critical: false },
  { key: 'q3', weight: 1, critical: true },
  { key: 'q4', weight: 3, critical: false },
  { key: 'q5', weight: 1, critical: false },
];
const on = { partialEnabled: true };
const off = { partialEnabled: false };

describe('scoreCase (DOMAIN.md §2.5: Σ wᵢsᵢ / Σ wᵢ over applicable items, all-or-none over critical items)', () => {
  it.each<[string, Record<string, ScoredAnswer>, typeof on, ReturnType<typeof scoreCase>]>([
    [
      // Applicable q1 (yes), q2 (no), q3 (partial); q4 N/A and q5 unanswered drop out.
      // Σw = 2 + 1 + 1 = 4; Σws = 2·1 + 1·0 + 1·0.5 = 2.5; 2.5 / 4 = 0.625. Critical q3 is Partial -> not all met.
      'Partial enabled: half credit',
      { q1: 'yes', q2: 'no', q3: 'partial', q4: 'na', q5: null },
      on,
      { score: 0.625, applicable: 3, met: 1, allOrNone: false },
    ],
    [
      // Same answers, Partial disabled: Σws = 2·1 + 0 + 0 = 2; 2 / 4 = 0.5 (Partial stays applicable, scores 0).
      'Partial disabled: no credit, still applicable',
      { q1: 'yes', q2: 'no', q3: 'partial', q4: 'na', q5: null },
      off,
      { score: 0.5, applicable: 3, met: 1, allOrNone: false },
    ],
    [
      // Σw = 2 + 1 + 1 + 3 = 7 (q5 N/A); Σws = 2 + 1 + 1 + 0 = 4; 4 / 7. Critical q1, q3 both Yes -> met.
      'weighted score, all critical items met',
      { q1: 'yes', q2: 'yes', q3: 'yes', q4: 'no', q5: 'na' },
      on,
      { score: 4 / 7, applicable: 4, met: 3, allOrNone: true },
    ],
    [
      // A critical No fails all-or-none even when the weighted score is high.
      // Σw = 2 + 1 + 1 + 3 + 1 = 8; Σws = 0 + 1 + 1 + 3 + 1 = 6; 6 / 8 = 0.75.
      'a critical No fails all-or-none',
      { q1: 'no', q2: 'yes', q3: 'yes', q4: 'yes', q5: 'yes' },
      on,
      { score: 0.75, applicable: 5, met: 4, allOrNone: false },
    ],
    [
      // Only q2 applies: 1 / 1; no critical item applicable -> all-or-none does not apply (null).
      'no applicable critical item',
      { q1: 'na', q2: 'yes' },
      on,
      { score: 1, applicable: 1, met: 1, allOrNone: null },
    ],
    [
      'nothing applicable',
      { q1: 'na', q2: 'na', q3: null },
      on,
      { score: null, applicable: 0, met: 0, allOrNone: null },
    ],
  ])('%s', (_label, answers, options, expected) => {
    expect(scoreCase(questions, answers, options)).toEqual(expected);
  });

  it('ignores answers to questions that are not scored', () => {
    expect(scoreCase(questions.slice(0, 1), { q1: 'yes', other: 'no' }, on)).toEqual({
      score: 1,
      applicable: 1,
      met: 1,
      allOrNone: true,
    });
  });

  it('refuses a weight that is not above 0', () => {
    expect(() => scoreCase([{ key: 'q9', weight: 0, critical: false }], {}, on)).toThrow(
      'The weight of question "q9" must be a number above 0.',
    );
  });
});

describe('questionCompliance (Yes / (Yes + No), N/A excluded, Partial 0.5 when enabled [C5])', () => {
  // 6 Yes, 2 No, 2 Partial, 3 N/A, 1 unanswered.
  const values: ScoredAnswer[] = [
    ...Array<ScoredAnswer>(6).fill('yes'),
    'no',
    'no',
    'partial',
    'partial',
    'na',
    'na',
    'na',
    null,
  ];

  it('counts Partial as half when enabled: (6 + 0.5·2) / 10 = 0.7', () => {
    expect(questionCompliance(values, on)).toEqual({ yes: 6, no: 2, partial: 2, na: 3, n: 10, rate: 0.7 });
  });

  it('counts Partial as not met when disabled: 6 / 10 = 0.6', () => {
    expect(questionCompliance(values, off)).toMatchObject({ n: 10, rate: 0.6 });
  });

  it('has no rate when the item never applied', () => {
    expect(questionCompliance(['na', null], on)).toEqual({ yes: 0, no: 0, partial: 0, na: 1, n: 0, rate: null });
  });
});

describe('wilsonInterval', () => {
  it.each([
    // Hand computation, 8/10: p = 0.8, z² = 3.8416, 1 + z²/n = 1.38416;
    // centre = (0.8 + 0.19208) / 1.38416 = 0.716738; half = (1.96 / 1.38416)·√(0.016 + 0.009604) = 0.226581
    // -> 0.490157 .. 0.943319.
    [8, 10, 0.490157, 0.943319, 6],
    // 0/10: centre = half = 0.19208 / 1.38416 -> 0 .. 0.38416 / 1.38416 = 0.277540.
    [0, 10, 0, 0.27754, 6],
    // 10/10, the mirror image: 1 − 0.277540 = 0.722460 .. 1.
    [10, 10, 0.72246, 1, 6],
    // Newcombe, Stat Med 1998;17:857-872, Table II, method 3 (score interval without continuity correction).
    [81, 263, 0.2553, 0.3662, 4],
    [15, 148, 0.0624, 0.1605, 4],
    [0, 20, 0, 0.1611, 4],
    [1, 29, 0.0061, 0.1718, 4],
  ])('%i of %i -> %f .. %f', (x, n, low, high, digits) => {
    const interval = wilsonInterval(x, n);
    expect(interval?.low).toBeCloseTo(low, digits);
    expect(interval?.high).toBeCloseTo(high, digits);
  });

  it('accepts half successes from Partial answers and other z values', () => {
    // 7.5/10 at z = 1 (68 %): p = 0.75, 1 + 1/10 = 1.1; centre = (0.75 + 0.05) / 1.1 = 0.7272727;
    // half = (1 / 1.1)·√(0.01875 + 0.0025) = 0.9090909 · 0.1457738 = 0.1325216 -> 0.594751 .. 0.859794.
    const interval = wilsonInterval(7.5, 10, 1);
    expect(interval?.low).toBeCloseTo(0.594751, 6);
    expect(interval?.high).toBeCloseTo(0.859794, 6);
  });

  it('has no interval without cases and refuses impossible counts', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(11, 10)).toThrow('A rate needs 0 <= successes <= n, not 11 of 10.');
    expect(() => wilsonInterval(-1, 10)).toThrow('not -1 of 10');
  });
});

describe('allOrNoneRate', () => {
  it('counts cases where all-or-none applied: 2 met of 3', () => {
    expect(allOrNoneRate([true, false, null, true])).toEqual({ met: 2, n: 3, rate: 2 / 3 });
  });

  it('has no rate when it never applied', () => {
    expect(allOrNoneRate([null, null])).toEqual({ met: 0, n: 0, rate: null });
    expect(allOrNoneRate([])).toEqual({ met: 0, n: 0, rate: null });
  });
});
