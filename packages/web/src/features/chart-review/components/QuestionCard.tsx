import {
  ActionIcon,
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
  Tooltip,
} from '@mantine/core';
import { CR_LIMITS, type CrAnswerType } from '@portal/shared';
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

function Arrow({ direction }: { direction: 'up' | 'down' }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={direction === 'up' ? 'M12 5l-7 7h4.5v7h5v-7H19z' : 'M12 19l7-7h-4.5V5h-5v7H5z'} fill="currentColor" />
    </svg>
  );
}

function Cross() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

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
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Move up" withArrow>
              <ActionIcon
                id={questionControlId(question.uid, 'up')}
                variant="default"
                size="lg"
                aria-label={`Move question ${number} up`}
                disabled={number === 1}
                onClick={() => onMove(-1)}
              >
                <Arrow direction="up" />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move down" withArrow>
              <ActionIcon
                id={questionControlId(question.uid, 'down')}
                variant="default"
                size="lg"
                aria-label={`Move question ${number} down`}
                disabled={number === total}
                onClick={() => onMove(1)}
              >
                <Arrow direction="down" />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Remove" withArrow>
              <ActionIcon
                id={questionControlId(question.uid, 'remove')}
                variant="default"
                color="red.9"
                size="lg"
                aria-label={`Remove question ${number}`}
                onClick={onRemove}
              >
                <Cross />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <Textarea
          id={questionControlId(question.uid, 'text')}
          label="Question"
          required
          rows={1}
          resize="vertical"
          maxLength={CR_LIMITS.textLength}
          value={question.text}
          onChange={(event) => onChange('text', event.currentTarget.value)}
          error={errors.text}
        />
        <Textarea
          label="Help for reviewers"
          description="Where to look in the chart and what counts as Yes (the abstraction guideline)."
          rows={1}
          resize="vertical"
          maxLength={CR_LIMITS.helpLength}
          value={question.help}
          onChange={(event) => onChange('help', event.currentTarget.value)}
          error={errors.help}
        />
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          <TextInput
            label="Key"
            description="Stays the same across versions, so results can be compared."
            required
            maxLength={63}
            value={question.key}
            onChange={(event) => onChange('key', event.currentTarget.value)}
            error={errors.key}
          />
          <Autocomplete
            label="Section"
            description="Questions are grouped under it."
            data={sections}
            maxLength={CR_LIMITS.sectionLength}
            value={question.section}
            onChange={(value) => onChange('section', value)}
            error={errors.section}
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
            value={question.weight}
            onChange={(value) => onChange('weight', value)}
            error={errors.weight}
          />
        </SimpleGrid>
        <Group gap="lg" wrap="wrap">
          <Checkbox
            label="Critical (all-or-none)"
            checked={question.critical}
            onChange={(event) => onChange('critical', event.currentTarget.checked)}
            error={errors.critical}
          />
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
            checked={question.na_reason_required}
            onChange={(event) => onChange('na_reason_required', event.currentTarget.checked)}
            error={errors.na_reason_required}
          />
        </Group>
        <TextInput
          label="Show only if"
          description={conditionHelp}
          placeholder="Always shown"
          maxLength={500}
          value={question.show_if}
          onChange={(event) => onChange('show_if', event.currentTarget.value)}
          error={errors.show_if}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
      </Stack>
    </Paper>
  );
}
