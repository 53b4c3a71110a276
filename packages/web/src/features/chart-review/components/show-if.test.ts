import { describe, expect, it } from 'vitest';
import { checkCondition, earlierKeys, questionVisibility } from './show-if';

const questions = [
  { key: 'icu_patient', show_if: '' },
  { key: 'ventilated', show_if: "icu_patient == 'yes'" },
  { key: 'vap_bundle', show_if: "ventilated == 'yes'" },
  { key: 'discharge_note', show_if: '' },
];

describe('show if', () => {
  it('offers only the keys of earlier, well-formed questions', () => {
    expect(earlierKeys([{ key: 'a1' }, { key: 'Bad key' }, { key: 'b2' }, { key: 'c3' }], 3)).toEqual(['a1', 'b2']);
  });

  it('checks a condition over the earlier keys as the server does', () => {
    expect(checkCondition('', ['a'])).toEqual({ ast: null, error: null });
    expect(checkCondition("icu_patient == 'yes'", ['icu_patient']).error).toBeNull();
    expect(checkCondition("later == 'yes'", ['icu_patient']).error).toMatch(/later/);
    expect(checkCondition('sum(icu_patient) > 1', ['icu_patient']).error).toBe(
      'Aggregates such as sum() cannot be used in a row expression.',
    );
  });

  it('shows a conditional question only while its condition holds; unanswered counts as not holding', () => {
    expect(questionVisibility(questions, {})).toEqual(['shown', 'hidden', 'hidden', 'shown']);
    expect(questionVisibility(questions, { icu_patient: 'yes' })).toEqual(['shown', 'shown', 'hidden', 'shown']);
    expect(questionVisibility(questions, { icu_patient: 'yes', ventilated: 'yes' })).toEqual([
      'shown',
      'shown',
      'shown',
      'shown',
    ]);
    expect(questionVisibility(questions, { icu_patient: 'na' })).toEqual(['shown', 'hidden', 'hidden', 'shown']);
  });

  it('ignores the answer of a question that is hidden again', () => {
    // "ventilated" was answered while shown; once "icu_patient" is No it is hidden and cannot open "vap_bundle".
    expect(questionVisibility(questions, { icu_patient: 'no', ventilated: 'yes' })).toEqual([
      'shown',
      'hidden',
      'hidden',
      'shown',
    ]);
  });

  it('marks a condition that cannot be read as invalid (shown in the preview)', () => {
    expect(
      questionVisibility(
        [
          { key: 'a', show_if: '' },
          { key: 'b', show_if: 'a ==' },
        ],
        {},
      ),
    ).toEqual(['shown', 'invalid']);
  });
});
