import { Center, Loader, Stack, Text } from '@mantine/core';

/** Full-page wait while the session is being checked (SPEC section 4: a loading screen before the role decision). */
export function LoadingScreen({ label = 'Checking your session…' }: { label?: string }) {
  return (
    <Center component="main" mih="100dvh" bg="gray.0">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader aria-hidden="true" />
        <Text c="dimmed">{label}</Text>
      </Stack>
    </Center>
  );
}
