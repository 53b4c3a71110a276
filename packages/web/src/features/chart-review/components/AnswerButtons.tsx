import { SegmentedControl } from '@mantine/core';
import type { CrAnswerValue } from '@portal/shared';

/** The words of an answer as the form and the adjudication screen show them. */
export const ANSWER_LABELS: Record<CrAnswerValue, string> = { yes: 'Yes', no: 'No', na: 'N/A', partial: 'Partial' };

/** A question's possible answers, in the form's order: Yes, Partial (when the type and the settings allow), No, N/A. */
export function answerChoices(
  question: { answer_type: string; na_allowed: boolean },
  partialEnabled: boolean,
): CrAnswerValue[] {
  return [
    'yes',
    ...(question.answer_type === 'yes_partial_no_na' && partialEnabled ? (['partial'] as const) : []),
    'no',
    ...(question.na_allowed ? (['na'] as const) : []),
  ];
}

interface AnswerButtonsProps {
  /** The id of the element that names the question (the buttons are a radio group labelled by it). */
  labelledBy: string;
  choices: readonly CrAnswerValue[];
  value: CrAnswerValue | null;
  onChange: (value: CrAnswerValue) => void;
  disabled?: boolean;
}

/**
 * The large Yes / No / N/A (Partial) toggle of a question, as in the tool preview: one press answers, the chosen
 * answer stays highlighted, nothing is chosen until the reviewer answers. Full width, so it is easy to hit on a phone.
 */
export function AnswerButtons({ labelledBy, choices, value, onChange, disabled = false }: AnswerButtonsProps) {
  return (
    <SegmentedControl
      aria-labelledby={labelledBy}
      size="lg"
      fullWidth
      disabled={disabled}
      data={choices.map((choice) => ({ value: choice, label: ANSWER_LABELS[choice] }))}
      // '' matches no choice: nothing is selected until the reviewer answers.
      value={value ?? ''}
      onChange={(next) => onChange(next as CrAnswerValue)}
    />
  );
}
