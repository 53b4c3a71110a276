import { describe, expect, it } from 'vitest';
import { reviewProgress, reviewQuestionStates } from './progress.js';

// The demo's pain tool: five questions, the reassessment only once an analgesic was given.
const PAIN = [
  { key: 'pain_assessed', show_if: '' },
  { key: 'analgesia_given', show_if: '' },
  { key: 'reassessed_in_time', show_if: "analgesia_given == 'yes'" },
  { key: 'goal_documented', show_if: '' },
  { key: 'education_given', show_if: '' },
];

describe('reviewProgress: the questions a reviewer must answer, given the answers so far', () => {
  it('counts a conditional question from the start, so the total does not grow while answering', () => {
    expect(reviewProgress(PAIN, {})).toEqual({ answered: 0, total: 5, pending: 1 });
    expect(reviewProgress(PAIN, { pain_assessed: 'yes' })).toEqual({ answered: 1, total: 5, pending: 1 });
    const all = {
      pain_assessed: 'yes',
      analgesia_given: 'yes',
      reassessed_in_time: 'yes',
      goal_documented: 'no',
      education_given: 'yes',
    };
    expect(reviewProgress(PAIN, { pain_assessed: 'yes', analgesia_given: 'yes' })).toEqual({
      answered: 2,
      total: 5,
      pending: 0,
    });
    expect(reviewProgress(PAIN, all)).toEqual({ answered: 5, total: 5, pending: 0 });
  });

  it('drops a question from the total once an answer rules it out, and never counts its answer', () => {
    expect(reviewProgress(PAIN, { analgesia_given: 'no' })).toEqual({ answered: 1, total: 4, pending: 0 });
    // An answer given while it was shown, then the condition turned false: not counted.
    expect(reviewProgress(PAIN, { analgesia_given: 'no', reassessed_in_time: 'yes' })).toEqual({
      answered: 1,
      total: 4,
      pending: 0,
    });
  });

  it('a question is pending only while a question its condition reads is still open', () => {
    const questions = [
      { key: 'icu', show_if: '' },
      { key: 'ventilated', show_if: "icu == 'yes'" },
      { key: 'vap_bundle', show_if: "ventilated == 'yes'" },
      { key: 'either', show_if: "icu == 'yes' || ventilated == 'yes'" },
    ];
    expect(reviewQuestionStates(questions, {})).toEqual(['shown', 'pending', 'pending', 'pending']);
    expect(reviewQuestionStates(questions, { icu: 'yes' })).toEqual(['shown', 'shown', 'pending', 'shown']);
    expect(reviewQuestionStates(questions, { icu: 'yes', ventilated: 'no' })).toEqual([
      'shown',
      'shown',
      'hidden',
      'shown',
    ]);
    // icu 'no' hides ventilated for good: its answer feeds nothing, so what reads it is settled too.
    expect(reviewQuestionStates(questions, { icu: 'no', ventilated: 'yes' })).toEqual([
      'shown',
      'hidden',
      'hidden',
      'hidden',
    ]);
    expect(reviewProgress(questions, { icu: 'no' })).toEqual({ answered: 1, total: 1, pending: 0 });
  });

  it('shows a question whose condition cannot be read; unanswered means null, undefined or empty', () => {
    const questions = [
      { key: 'a', show_if: '' },
      { key: 'b', show_if: "a == 'yes' &&" },
    ];
    expect(reviewQuestionStates(questions, {})).toEqual(['shown', 'shown']);
    expect(reviewProgress(questions, { a: '', b: null })).toEqual({ answered: 0, total: 2, pending: 0 });
  });
});
