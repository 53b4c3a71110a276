import {
  Autocomplete,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { CR_LIMITS, type CrAnswerType } from '@portal/shared';
import { ReorderControls } from '../../../components/list-editor/ReorderControls';
import { fieldBinder } from '../../../lib/field-binding';
import type { DraftQuestion, QuestionErrors, QuestionField } from './question-draft';
import { ANSWER_TYPE_LABELS } from './tool-words';

interface QuestionCardProps {
  question: DraftQuestion;
  /** 1-based, in the whole list. */
  number: number;
  total: number;
  errors: QuestionErrors[string] | undefined;
  /** Keys of the questions before this one: what its condition may use. */
  earlierKeys: string[];
  sections: string[];
  partialEnabled: boolean;
  onChange: <K extends QuestionField>(field: K, value: DraftQuestion[K]) => void;
  onMove: (offset: -1 | 1) => void;
  onRemove: () => void;
}

/** Ids of a question's controls, so the editor can put focus back after a move or an addition. */
export const questionControlId = (uid: string, control: 'text' | 'up' | 'down' | 'remove') => `cr-${uid}-${control}`;

/** One question of a draft: every field the contract has, with the server's or the check's message at each. */
export function QuestionCard(props: QuestionCardProps) {
  const {
    question,
    number,
    total,
    errors = {},
    earlierKeys,
    sections,
    partialEnabled,
    onChange,
    onMove,
    onRemove,
  } = props;
  const answerTypes: { value: CrAnswerType; label: string }[] = [
    { value: 'yes_no_na', label: ANSWER_TYPE_LABELS.yes_no_na },
    ...(partialEnabled || question.answer_type === 'yes_partial_no_na'
      ? [
          {
            value: 'yes_partial_no_na' as const,
            label: partialEnabled
              ? ANSWER_TYPE_LABELS.yes_partial_no_na
              : `${ANSWER_TYPE_LABELS.yes_partial_no_na} (Partial answers are off)`,
          },
        ]
      : []),
  ];
  const name = `Question ${number}`;
  const field = fieldBinder({ values: question, errors, change: onChange });
  const conditionHelp =
    earlierKeys.length === 0
      ? 'Leave empty: the first question has no earlier answers to depend on.'
      : `Leave empty to always show it. Earlier keys: ${earlierKeys.join(', ')}. Example: icu_patient == 'yes'`;

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      role="group"
      aria-label={name}
      data-question-uid={question.uid}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={700}>{name}</Text>
          <ReorderControls
            noun="question"
            number={number}
            total={total}
            controlId={(control) => questionControlId(question.uid, control)}
            onMove={onMove}
            onRemove={onRemove}
          />
        </Group>
        <Textarea
          id={questionControlId(question.uid, 'text')}
          label="Question"
          required
          rows={1}
          resize="vertical"
          maxLength={CR_LIMITS.textLength}
          {...field.text('text')}
        />
        <Textarea
          label="Help for reviewers"
          description="Where to look in the chart and what counts as Yes (the abstraction guideline)."
          rows={1}
          resize="vertical"
          maxLength={CR_LIMITS.helpLength}
          {...field.text('help')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          <TextInput
            label="Key"
            description="Stays the same across versions, so results can be compared."
            required
            maxLength={63}
            {...field.text('key')}
          />
          <Autocomplete
            label="Section"
            description="Questions are grouped under it."
            data={sections}
            maxLength={CR_LIMITS.sectionLength}
            {...field.value('section')}
          />
          <Select
            label="Answers"
            data={answerTypes}
            allowDeselect={false}
            value={question.answer_type}
            onChange={(value) => value && onChange('answer_type', value as CrAnswerType)}
            error={errors.answer_type}
          />
          <NumberInput
            label="Weight"
            description="Its share in the case score."
            min={0.1}
            max={100}
            decimalScale={2}
            {...field.number('weight')}
          />
        </SimpleGrid>
        <Group gap="lg" wrap="wrap">
          <Checkbox label="Critical (all-or-none)" {...field.checked('critical')} />
          <Checkbox
            label="N/A allowed"
            checked={question.na_allowed}
            onChange={(event) => {
              const allowed = event.currentTarget.checked;
              onChange('na_allowed', allowed);
              // A reason for N/A means nothing once N/A is not an answer.
              if (!allowed) onChange('na_reason_required', false);
            }}
            error={errors.na_allowed}
          />
          <Checkbox
            label="N/A needs a reason"
            disabled={!question.na_allowed}
            {...field.checked('na_reason_required')}
          />
        </Group>
        <TextInput
          label="Show only if"
          description={conditionHelp}
          placeholder="Always shown"
          maxLength={500}
          {...field.text('show_if')}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
      </Stack>
    </Paper>
  );
}
