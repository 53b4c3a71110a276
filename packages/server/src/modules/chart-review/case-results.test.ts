import { describe, expect, it } from 'vitest';
import { compareReviews, finalAnswers, type QuestionForReview, visibleAnswers, visibleKeys } from './case-results.js';

const q = (key: string, show_if = ''): QuestionForReview => ({
  id: key.length,
  key,
  show_if,
  weight: 1,
  critical: false,
});

describe('case results: visibility, comparison and final answers', () => {
  const questions = [
    q('icu'),
    q('icu_score', "icu == 'yes'"),
    q('sedated', "icu_score == 'no'"),
    q('pain'),
    q('broken', 'icu =='),
  ];

  it('shows a conditional question only when its condition holds; a hidden answer feeds no later condition', () => {
    expect([...visibleKeys(questions, {})]).toEqual(['icu', 'pain', 'broken']);
    expect([...visibleKeys(questions, { icu: 'yes' })]).toEqual(['icu', 'icu_score', 'pain', 'broken']);
    expect([...visibleKeys(questions, { icu: 'yes', icu_score: 'no' })]).toEqual([
      'icu',
      'icu_score',
      'sedated',
      'pain',
      'broken',
    ]);
    // icu_score is hidden again, so its stale 'no' does not show sedated.
    expect([...visibleKeys(questions, { icu: 'no', icu_score: 'no' })]).toEqual(['icu', 'pain', 'broken']);
    expect(visibleAnswers(questions, { icu: 'no', icu_score: 'no', pain: 'yes' })).toEqual({
      icu: 'no',
      pain: 'yes',
      broken: null,
    });
  });

  it('compares two reviews over the questions either reviewer saw', () => {
    const compared = compareReviews(
      questions,
      { icu: 'no', pain: 'yes', broken: 'na' },
      { icu: 'yes', icu_score: 'yes', pain: 'yes', broken: 'na' },
    );
    expect(compared).toEqual([
      { key: 'icu', a: 'no', b: 'yes', agreed: false },
      { key: 'icu_score', a: null, b: 'yes', agreed: false },
      { key: 'pain', a: 'yes', b: 'yes', agreed: true },
      { key: 'broken', a: 'na', b: 'na', agreed: true },
    ]);
  });

  it('takes the final answers from the primary review with the adjudicated values, over what is then visible', () => {
    const primary = { icu: 'no', pain: 'yes', broken: 'no' } as const;
    expect(finalAnswers(questions, primary)).toEqual({ icu: 'no', pain: 'yes', broken: 'no' });
    expect(finalAnswers(questions, primary, { icu: { value: 'yes' }, icu_score: { value: 'yes' } })).toEqual({
      icu: 'yes',
      icu_score: 'yes',
      pain: 'yes',
      broken: 'no',
    });
  });
});
