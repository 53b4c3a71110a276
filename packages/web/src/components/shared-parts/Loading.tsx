import { Center, Loader } from '@mantine/core';

/** A load in progress: a spinner screen readers announce as `label`. */
export function Loading({ label }: { label: string }) {
  return (
    <Center py="xl" mih={160} role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}
