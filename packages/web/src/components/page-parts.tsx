import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
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

interface SubpageHeadingProps {
  /** The page above this one, linked over the title. */
  back: { to: string; label: string };
  title: string;
  description?: ReactNode;
  /** Buttons at the end of the heading row. */
  actions?: ReactNode;
}

/** The h1 of a page reached from another (the administration screens): a way back, the title and the page's actions. */
export function SubpageHeading({ back, title, description, actions }: SubpageHeadingProps) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={4} style={{ flex: '1 1 24rem' }}>
        <Anchor component={Link} to={back.to} size="sm" w="fit-content">
          {back.label}
        </Anchor>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          {title}
        </Title>
        {description && <Text c="gray.7">{description}</Text>}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}

/** How a load's placeholders and failure sit: `inset` pads them, for a bordered panel whose content runs edge to edge. */
interface Placement {
  inset?: boolean;
}

interface LoadFailureProps extends Placement {
  error: unknown;
  fallback: string;
  retrying: boolean;
  onRetry: () => void;
  /** The button's text ("Try again" unless a screen says "Retry"). */
  retryLabel?: string;
}

/** A load that failed: the server's reason and a way to try again. */
export function LoadFailure({ error, fallback, ...rest }: LoadFailureProps) {
  return <RetryableFailure message={messageFor(error, fallback)} {...rest} />;
}

interface RetryableFailureProps extends Omit<LoadFailureProps, 'error' | 'fallback'> {
  message: string;
}

/** A failure said in the screen's own words, with a way to try again. */
export function RetryableFailure({
  message,
  retrying,
  onRetry,
  retryLabel = 'Try again',
  inset,
}: RetryableFailureProps) {
  return (
    <Stack gap="sm" align="flex-start" p={inset ? 'md' : undefined}>
      <Alert color="red" variant="light" w="100%" role="alert">
        {message}
      </Alert>
      <Button variant="default" loading={retrying} onClick={onRetry}>
        {retryLabel}
      </Button>
    </Stack>
  );
}

interface QueryFailureProps extends Placement {
  query: { error: unknown; isFetching: boolean; refetch: () => unknown };
  fallback: string;
  retryLabel?: string;
}

/** LoadFailure for a failed query: its reason (or `fallback`), and the button fetches it again. */
export function QueryFailure({ query, ...rest }: QueryFailureProps) {
  return <LoadFailure error={query.error} retrying={query.isFetching} onRetry={() => void query.refetch()} {...rest} />;
}

interface QueryBodyProps<T> extends Placement {
  query: { data: T | undefined; isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown };
  /** Shown when the server gives no reason of its own. */
  fallback: string;
  retryLabel?: string;
  /** Names the placeholder for assistive technology ("Loading documents"). */
  loadingLabel: string;
  rows?: number;
  rowHeight?: number;
  /** A placeholder shaped like the content, instead of rows. */
  loading?: ReactNode;
  children: (data: T) => ReactNode;
}

/** One query's three states: its data, a failure with a way to try again, or placeholders while it loads. */
export function QueryBody<T>({
  query,
  fallback,
  retryLabel,
  loadingLabel,
  rows,
  rowHeight,
  inset,
  loading,
  children,
}: QueryBodyProps<T>) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    return <QueryFailure query={query} fallback={fallback} retryLabel={retryLabel} inset={inset} />;
  }
  return loading ?? <LoadingRows label={loadingLabel} rows={rows} height={rowHeight} inset={inset} />;
}

interface LoadingRowsProps extends Placement {
  label: string;
  rows?: number;
  height?: number;
}

/** Placeholder rows while a list loads. */
export function LoadingRows({ label, rows = 4, height = 36, inset }: LoadingRowsProps) {
  return (
    <Stack gap="xs" role="status" aria-label={label} p={inset ? 'md' : undefined}>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder
        <Skeleton key={index} height={height} radius="sm" />
      ))}
    </Stack>
  );
}

/** A section's h2 (`id` lets the section name itself by it) and a line saying what the section is for. */
export function SectionTitle({ id, title, description }: { id: string; title: string; description?: ReactNode }) {
  return (
    <>
      <Title order={2} fz="h4" id={id}>
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      )}
    </>
  );
}

/**
 * A titled section of a page (its h2, found by `id`, names it for assistive technology); a line saying what it is
 * for and then `actions` sit under the title.
 */
export function SectionCard({
  id,
  title,
  description,
  children,
  actions,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Stack gap={4}>
          <SectionTitle id={id} title={title} description={description} />
          {actions}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

/** A form's or a list's error, said above it; nothing while there is none. */
export function ErrorNotice({ message }: { message: ReactNode }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert">
      {message}
    </Alert>
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

/** A bordered box for a table or list whose content runs edge to edge; `busy` while its query fetches again. */
export function ListPanel({ busy, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }} aria-busy={busy}>
      {children}
    </Paper>
  );
}
