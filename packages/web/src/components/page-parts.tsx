import { Alert, Button, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { messageFor } from '../lib/api';

/** The page's one h1 and a line saying what the page is for (every app's screens). */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        {title}
      </Title>
      {children && <Text c="dimmed">{children}</Text>}
    </Stack>
  );
}

interface LoadFailureProps {
  error: unknown;
  fallback: string;
  retrying: boolean;
  onRetry: () => void;
}

/** A load that failed: the server's reason and a way to try again. */
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

interface QueryBodyProps<T> {
  query: { data: T | undefined; isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown };
  /** Shown when the server gives no reason of its own. */
  fallback: string;
  /** Names the placeholder for assistive technology ("Loading documents"). */
  loadingLabel: string;
  rows?: number;
  /** A placeholder shaped like the content, instead of rows. */
  loading?: ReactNode;
  children: (data: T) => ReactNode;
}

/** One query's three states: its data, a failure with a way to try again, or placeholders while it loads. */
export function QueryBody<T>({ query, fallback, loadingLabel, rows, loading, children }: QueryBodyProps<T>) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    return (
      <LoadFailure
        error={query.error}
        fallback={fallback}
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return loading ?? <LoadingRows label={loadingLabel} rows={rows} />;
}

/** Placeholder rows while a list loads. */
export function LoadingRows({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <Stack gap="xs" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder
        <Skeleton key={index} height={36} radius="sm" />
      ))}
    </Stack>
  );
}

/** A titled section of a page (its h2 names it for assistive technology); `actions` sit under the title. */
export function SectionCard({
  id,
  title,
  children,
  actions,
}: {
  id: string;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="h4" id={id}>
            {title}
          </Title>
          {actions}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

/** An error to show above a form or list, closable. */
export function FailureAlert({ message, onClose }: { message: string | null; onClose: () => void }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={onClose}>
      {message}
    </Alert>
  );
}
