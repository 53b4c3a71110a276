import {
  Alert,
  Anchor,
  Button,
  EmptyState,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { messageFor } from '../../../lib/api';

/** The top of a console page: a way back to the administration home, the title and the page's actions. */
export function ConsolePageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={4} style={{ flex: '1 1 24rem' }}>
        <Anchor component={Link} to="/superadmin" size="sm" w="fit-content">
          Administration
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

/** A failed load: the reason and a way to try again. */
export function LoadError({ message, retrying, onRetry }: { message: string; retrying: boolean; onRetry: () => void }) {
  return (
    <Stack gap="sm" align="flex-start">
      <Alert color="red" variant="light" w="100%" role="alert">
        {message}
      </Alert>
      <Button variant="default" loading={retrying} onClick={onRetry}>
        Retry
      </Button>
    </Stack>
  );
}

/** LoadError for a failed query: its message (or `fallback`), and Retry fetches it again. */
export function QueryLoadError({
  query,
  fallback,
}: {
  query: { error: unknown; isFetching: boolean; refetch: () => Promise<unknown> };
  fallback: string;
}) {
  return (
    <LoadError
      message={messageFor(query.error, fallback)}
      retrying={query.isFetching}
      onRetry={() => void query.refetch()}
    />
  );
}

/** Rows of grey while a table loads, the height of the rows to come. */
export function RowsSkeleton({ label, rows = 6, height = 40 }: { label: string; rows?: number; height?: number }) {
  return (
    <Stack gap="xs" p="md" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with no identity
        <Skeleton key={index} height={height} radius="sm" />
      ))}
      <VisuallyHidden>{label}</VisuallyHidden>
    </Stack>
  );
}

/** Paging under a list: where the reader is and the page links. */
export function Pager({
  page,
  pageSize,
  total,
  noun,
  onChange,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** Plural noun of the rows, e.g. 'emails'. */
  noun: string;
  onChange: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total === 0) return null;
  const first = Math.min(total, (page - 1) * pageSize + 1);
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="gray.7" aria-live="polite">
        Showing {first.toLocaleString('en-US')}–{last.toLocaleString('en-US')} of {total.toLocaleString('en-US')} {noun}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={onChange}
          size="sm"
          siblings={1}
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : undefined,
          })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
      )}
    </Group>
  );
}

/** A bordered box for a table or list, so every state (loading, error, empty, rows) has the same frame. */
export function Panel({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      {children}
    </Paper>
  );
}

/**
 * The empty state of a filtered, paged log (audit, emails): past the last page (with a way to the first), nothing
 * that matches the filters (with Clear filters), or nothing recorded yet (with `noneHelp`).
 */
export function EmptyLog({
  page,
  beyondLastPage,
  filtered,
  noMatch,
  none,
  noneHelp,
  onFirstPage,
  onClearFilters,
}: {
  page: number;
  beyondLastPage: boolean;
  filtered: boolean;
  noMatch: string;
  none: string;
  noneHelp: string;
  onFirstPage: () => void;
  onClearFilters: () => void;
}) {
  return (
    <EmptyState
      py="xl"
      px="md"
      title={beyondLastPage ? `There is no page ${page}.` : filtered ? noMatch : none}
      description={filtered || beyondLastPage ? undefined : noneHelp}
    >
      {(beyondLastPage || filtered) && (
        <EmptyState.Actions>
          {beyondLastPage ? (
            <Button variant="default" onClick={onFirstPage}>
              Go to the first page
            </Button>
          ) : (
            <Button variant="default" onClick={onClearFilters}>
              Clear filters
            </Button>
          )}
        </EmptyState.Actions>
      )}
    </EmptyState>
  );
}
