import { type CrQuestionInput, formatPercent } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { percentError, percentToShare, shareToPercent } from './percent';
import {
  checkDraft,
  type DraftQuestion,
  groupBySection,
  moveQuestion,
  NEW_QUESTION_DEFAULTS,
  newQuestion,
  serverQuestionErrors,
  toDraft,
} from './question-draft';
import { describeSamplingPlan } from './sampling-words';

const base: CrQuestionInput = {
  key: 'q',
  section: '',
  text: 'A question?',
  ...NEW_QUESTION_DEFAULTS,
};
const draft = (...overrides: Partial<CrQuestionInput>[]): DraftQuestion[] =>
  toDraft(overrides.map((override) => ({ ...base, ...override })));

describe('the draft of a tool version', () => {
  it('groups runs of the same section in order', () => {
    const groups = groupBySection(draft({ section: 'A' }, { section: 'A ' }, { section: 'B' }, { section: 'A' }));
    expect(groups.map((group) => [group.section, group.items.map((item) => item.index)])).toEqual([
      ['A', [0, 1]],
      ['B', [2]],
      ['A', [3]],
    ]);
  });

  it('moves a question up or down, and not past either end', () => {
    expect(moveQuestion(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveQuestion(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveQuestion(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveQuestion(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('gives a new question a key no other question has', () => {
    const questions = draft({ key: 'question_2' }, { key: 'other' });
    expect(newQuestion(questions, 'Admission')).toMatchObject({ key: 'question_3', section: 'Admission', weight: 1 });
  });

  it('reports every problem at its question and field', () => {
    const questions = draft(
      { key: 'icu' },
      { key: 'icu', text: ' ' },
      { key: 'pain', answer_type: 'yes_partial_no_na', weight: 0 },
      { key: 'late', show_if: "later == 'yes'" },
    );
    const checked = checkDraft(questions, false);
    expect('errors' in checked && checked.errors).toEqual({
      [questions[1]!.uid]: { key: 'Another question above already has the key "icu".', text: 'Enter the question.' },
      [questions[2]!.uid]: {
        weight: 'The weight is more than 0.',
        answer_type: 'Partial answers are off in the chart review settings.',
      },
      [questions[3]!.uid]: { show_if: expect.stringMatching(/later/) },
    });
  });

  it('gives the questions to send when all is well', () => {
    const checked = checkDraft(
      draft({ key: 'a', weight: '2' as unknown as number }, { key: 'b', show_if: "a == 'yes'" }),
      true,
    );
    expect('questions' in checked && checked.questions.map((q) => [q.key, q.weight, q.show_if])).toEqual([
      ['a', 2, ''],
      ['b', 1, "a == 'yes'"],
    ]);
  });

  it('attaches the server field errors to the questions as they were sent', () => {
    const sent = draft({ key: 'a' }, { key: 'b' });
    const error = new ApiError(
      400,
      {
        message: 'The given data was invalid.',
        errors: { 'questions.1.show_if': ['Unknown column a2.'], questions: ['At most 100 questions.'] },
      },
      'The given data was invalid.',
    );
    expect(serverQuestionErrors(error, sent)).toEqual({
      errors: { [sent[1]!.uid]: { show_if: 'Unknown column a2.' } },
      general: 'At most 100 questions.',
    });
  });
});

describe('words and numbers of the screens', () => {
  it('converts shares and percentages without binary noise', () => {
    expect(shareToPercent(0.07)).toBe(7);
    expect(percentToShare(7)).toBe(0.07);
    expect(percentToShare(97.5)).toBe(0.975);
    expect(formatPercent(0.975, { digits: 2 })).toBe('97.5%');
    expect(formatPercent(0.9725, { digits: 2 })).toBe('97.25%');
    expect(percentError('', 'target')).toBe('Enter the target as a percentage.');
    expect(percentError(101, 'target')).toBe('The target is from 0% to 100%.');
    expect(percentError('12.5', 'target')).toBeNull();
  });

  it('says a sampling plan in words', () => {
    expect(describeSamplingPlan({ method: 'jc_table' }, 'month')).toBe('Joint Commission table');
    expect(describeSamplingPlan({ method: 'fixed', n: 30 }, 'month')).toBe('Fixed 30 per month');
    expect(describeSamplingPlan({ method: 'percent', pct: 20, min: 10, max: 50 }, 'quarter')).toBe(
      '20% (min 10, max 50)',
    );
    expect(describeSamplingPlan({ method: 'percent', pct: 5, max: 1500 }, 'month')).toBe('5% (max 1,500)');
    expect(describeSamplingPlan({ method: 'all', stratify_by_unit: true }, 'month')).toBe(
      'All cases, each unit separately',
    );
  });
});
