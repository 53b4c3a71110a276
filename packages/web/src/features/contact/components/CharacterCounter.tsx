import { Text } from '@mantine/core';
import { characterCount } from './character-count';

/** The counter under a text field, red once the text is too long. */
export function CharacterCounter({ value, max }: { value: string; max: number }) {
  const { label, over } = characterCount(value, max);
  return (
    <Text component="span" size="xs" c={over ? 'red.8' : 'dimmed'} fw={over ? 700 : undefined} data-over={over}>
      {label}
    </Text>
  );
}
