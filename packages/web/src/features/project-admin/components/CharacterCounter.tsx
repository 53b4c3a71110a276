import { Text } from '@mantine/core';

/** '12 / 2,000 characters' under a text field, red once the text is too long (trailing spaces are not counted). */
export function CharacterCounter({ value, max }: { value: string; max: number }) {
  const length = value.trim().length;
  const over = length > max;
  return (
    <Text component="span" size="xs" c={over ? 'red.8' : 'dimmed'} fw={over ? 700 : undefined} data-over={over}>
      {`${length.toLocaleString('en-US')} / ${max.toLocaleString('en-US')} characters`}
    </Text>
  );
}
