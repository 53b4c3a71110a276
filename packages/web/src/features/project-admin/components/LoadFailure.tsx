import { Alert, Button, Stack } from '@mantine/core';
import { messageFor } from '../../../lib/api';

interface LoadFailureProps {
  error: unknown;
  fallback: string;
  retrying: boolean;
  onRetry: () => void;
}

/** A load that failed: the reason and a way to try again. */
export function LoadFailure({ error, fallback, retrying, onRetry }: LoadFailureProps) {
  return (
    <Stack gap="sm" align="flex-start">
      <Alert color="red" variant="light" w="100%" role="alert">
        {messageFor(error, fallback)}
      </Alert>
      <Button variant="default" loading={retrying} onClick={onRetry}>
        Try again
      </Button>
    </Stack>
  );
}
