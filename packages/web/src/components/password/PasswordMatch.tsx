import { Box, CheckIcon, CloseIcon, Group, Text } from '@mantine/core';

/** The green tick or red cross beside the confirmation field (SPEC section 2), with words, not colour alone. */
export function PasswordMatch({ matches }: { matches: boolean }) {
  return (
    <Group gap={6} wrap="nowrap" data-matches={matches}>
      {/* The icon carries the colour; the words stay in the text colour, which passes contrast on white. */}
      <Box c={matches ? 'green.8' : 'red.8'} display="flex" aria-hidden="true">
        {matches ? <CheckIcon size={14} data-icon="tick" /> : <CloseIcon size="16px" data-icon="cross" />}
      </Box>
      <Text size="sm" c="gray.9">
        {matches ? 'Passwords match' : 'Passwords do not match'}
      </Text>
    </Group>
  );
}
