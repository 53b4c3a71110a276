import { Group, List, Progress, Stack, Text } from '@mantine/core';
import type { PasswordEvaluation } from './password-strength';

/** Bar colours only: the label is text in the normal colour, so no colour needs to pass text contrast. */
const COLORS = ['red.8', 'red.8', 'orange.6', 'green.7', 'green.8'] as const;

/** Label, bar and the requirements still unmet (SPEC section 4: scores 0 to 4, Very Weak to Very Strong). */
export function PasswordStrengthMeter({ evaluation }: { evaluation: PasswordEvaluation }) {
  const unmet = evaluation.requirements.filter((requirement) => !requirement.met);
  const color = COLORS[evaluation.score] ?? 'red.8';
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          Password strength:{' '}
          <Text span fw={700} inherit>
            {evaluation.label}
          </Text>
        </Text>
      </Group>
      <Progress
        value={((evaluation.score + 1) / 5) * 100}
        color={color}
        size="sm"
        aria-label={`Password strength: ${evaluation.label}`}
      />
      {unmet.length > 0 && (
        <div>
          <Text size="sm" c="dimmed">
            Still needed:
          </Text>
          <List size="sm" spacing={2}>
            {unmet.map((requirement) => (
              <List.Item key={requirement.key}>{requirement.label}</List.Item>
            ))}
          </List>
        </div>
      )}
    </Stack>
  );
}
