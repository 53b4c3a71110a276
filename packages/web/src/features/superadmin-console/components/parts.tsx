import { Button, EmptyState, Group, Pagination, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { QueryFailure, RetryableFailure, SubpageHeading } from '../../../components/page-parts';

const ADMINISTRATION = { to: '/superadmin', label: 'Administration' };

/** The top of a console page: a way back to the administration home, the title and the page's actions. */
export function ConsolePageHeader(props: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return <SubpageHeading back={ADMINISTRATION} {...props} />;
}

/** A failed load said in the page's words; Retry tries again. */
export function LoadError(props: { message: string; retrying: boolean; onRetry: () => void; inset?: boolean }) {
  return <RetryableFailure retryLabel="Retry" {...props} />;
}

/** LoadError for a failed query: its message (or `fallback`), and Retry fetches it again. */
export function QueryLoadError(props: {
  query: { error: unknown; isFetching: boolean; refetch: () => Promise<unknown> };
  fallback: string;
  inset?: boolean;
}) {
  return <QueryFailure retryLabel="Retry" {...props} />;
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
