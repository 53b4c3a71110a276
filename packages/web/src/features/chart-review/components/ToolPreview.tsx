import { Alert, Badge, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import type { CrQuestionInput } from '@portal/shared';
import { useId, useState } from 'react';
import { groupBySection } from './question-draft';
import { type PreviewAnswer, questionVisibility } from './show-if';

type PreviewQuestion = Pick<
  CrQuestionInput,
  'key' | 'section' | 'text' | 'help' | 'answer_type' | 'na_allowed' | 'show_if'
>;

function answerChoices(question: PreviewQuestion): { value: PreviewAnswer; label: string }[] {
  return [
    { value: 'yes', label: 'Yes' },
    ...(question.answer_type === 'yes_partial_no_na' ? [{ value: 'partial' as const, label: 'Partial' }] : []),
    { value: 'no', label: 'No' },
    ...(question.na_allowed ? [{ value: 'na' as const, label: 'N/A' }] : []),
  ];
}

/**
 * The form as a reviewer sees it, to try before publishing: sections, large answer buttons, and conditional
 * questions that appear once their condition holds. Nothing is saved.
 */
export function ToolPreview({ questions, privilegeLabel }: { questions: PreviewQuestion[]; privilegeLabel?: string }) {
  const [answers, setAnswers] = useState<Record<string, PreviewAnswer>>({});
  const visibility = questionVisibility(questions, answers);
  const shown = visibility.filter((state) => state !== 'hidden').length;
  const conditional = questions.filter((question) => question.show_if.trim() !== '').length;

  if (questions.length === 0)
    return <Text c="dimmed">This version has no questions yet, so there is nothing to preview.</Text>;

  return (
    <Stack gap="lg" aria-label="Preview of the review form" component="section">
      {privilegeLabel && (
        <Alert color="gray" variant="light" title="Confidential">
          {privilegeLabel}
        </Alert>
      )}
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {shown} of {questions.length} questions shown.
          {conditional > 0 && ' Answer the questions to see the conditional ones appear. Nothing here is saved.'}
        </Text>
        <Button
          variant="default"
          size="compact-sm"
          onClick={() => setAnswers({})}
          disabled={Object.keys(answers).length === 0}
        >
          Clear answers
        </Button>
      </Group>
      {groupBySection(questions).map((group) => {
        const items = group.items.filter(({ index }) => visibility[index] !== 'hidden');
        if (items.length === 0) return null;
        return (
          <Stack key={`${group.section}-${group.items[0]?.index}`} gap="sm">
            {group.section && (
              <Title order={3} fz="h4">
                {group.section}
              </Title>
            )}
            {items.map(({ question, index }) => (
              <PreviewItem
                key={`${question.key}-${index}`}
                question={question}
                number={index + 1}
                invalid={visibility[index] === 'invalid'}
                answer={answers[question.key] ?? null}
                onAnswer={(value) => setAnswers((current) => ({ ...current, [question.key]: value }))}
              />
            ))}
          </Stack>
        );
      })}
    </Stack>
  );
}

interface PreviewItemProps {
  question: PreviewQuestion;
  number: number;
  invalid: boolean;
  answer: PreviewAnswer | null;
  onAnswer: (value: PreviewAnswer) => void;
}

function PreviewItem({ question, number, invalid, answer, onAnswer }: PreviewItemProps) {
  const labelId = useId();
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-preview-key={question.key}>
      <Stack gap="xs">
        <Text fw={600} id={labelId}>
          {number}. {question.text || 'Question without text'}
        </Text>
        {question.help && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {question.help}
          </Text>
        )}
        {question.show_if.trim() && (
          <Group gap={4}>
            <Badge variant="light" color={invalid ? 'red.9' : 'blue.9'} tt="none">
              {invalid ? (
                'Its condition cannot be read, so it is always shown here'
              ) : (
                <>
                  Shown when <code>{question.show_if.trim()}</code>
                </>
              )}
            </Badge>
          </Group>
        )}
        <SegmentedControl
          aria-labelledby={labelId}
          size="lg"
          fullWidth
          data={answerChoices(question)}
          // '' matches no choice: nothing is selected until the reviewer answers.
          value={answer ?? ''}
          onChange={(value) => onAnswer(value as PreviewAnswer)}
        />
      </Stack>
    </Paper>
  );
}
