import { Alert, Anchor, Box, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { DOCUMENT_STATUS_LABELS, DOCUMENT_STATUSES, type DocumentStatus, permissionKey } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { Snippet } from '../../../components/policy/Snippet';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDepartments } from '../api/get-departments';
import { type SearchResult, useSearchDocuments } from '../api/search-documents';
import { departmentSelectData } from './browse-ui';
import type { SEARCH_FILTERS } from './PolicySearchBox';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

/** How many results one search shows (the server's maximum). */
export const SEARCH_LIMIT = 50;

export { Snippet, type SnippetPart, snippetParts } from '../../../components/policy/Snippet';

const isStatus = (value: string | null): value is DocumentStatus =>
  (DOCUMENT_STATUSES as readonly string[]).includes(value ?? '');

/**
 * Route `search`: the results for ?q= (ranked by the server), with their snippets. Filters in the URL:
 * ?department_id= (with the departments below it), ?status= (for those who see drafts), ?include_archived=true.
 */
export function SearchPage() {
  const projectId = usePolicyProjectId();
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const includeArchived = params.get('include_archived') === 'true';
  const departmentId = Number(params.get('department_id')) || null;
  const status = isStatus(params.get('status')) ? (params.get('status') as DocumentStatus) : null;
  usePageTitle(q ? `Search: ${q}` : 'Search');
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  // Only authors and administrators see drafts; a reader's search is of published policies anyway.
  const seesDrafts = permissions.data?.[permissionKey('policy_management', 'edit-documents')] === true;
  const departments = useDepartments(projectId);
  const search = useSearchDocuments(projectId, {
    q,
    include_archived: includeArchived,
    department_id: departmentId,
    status: seesDrafts ? status : null,
    limit: SEARCH_LIMIT,
  });

  const setFilter = (name: (typeof SEARCH_FILTERS)[number], value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  let body: ReactNode;
  if (!q) {
    body = (
      <Text c="dimmed" data-testid="search-hint">
        Type words in the search box to find policies by their text, number or title.
      </Text>
    );
  } else if (search.isPending) {
    body = <LoadingRows label="Searching the policies" />;
  } else if (search.isError) {
    body = (
      <LoadFailure
        error={search.error}
        fallback="The search could not be completed. Please try again."
        retrying={search.isFetching}
        onRetry={() => void search.refetch()}
      />
    );
  } else if (search.data.results.length === 0) {
    body = <Text c="dimmed">No policies found.</Text>;
  } else {
    const { results, total, total_capped: capped, fuzzy, synonyms } = search.data;
    const counted = `${total.toLocaleString('en-US')}${capped ? '+' : ''}`;
    body = (
      <Stack gap="sm" style={{ opacity: search.isPlaceholderData ? 0.6 : 1 }} aria-busy={search.isPlaceholderData}>
        {fuzzy && (
          <Alert color="yellow" variant="light" data-testid="search-fuzzy">
            No exact matches; showing policies with similar titles.
          </Alert>
        )}
        {synonyms.length > 0 && (
          <Text size="sm" c="dimmed" data-testid="search-synonyms" style={{ overflowWrap: 'anywhere' }}>
            Also searched for {synonyms.map((term) => `“${term}”`).join(', ')}.
          </Text>
        )}
        <Text size="sm" c="dimmed" data-testid="search-total">
          {total === 1 && !capped ? '1 result' : `${counted} results`}
          {(results.length < total || capped) &&
            ` (showing the best ${results.length}; add words to narrow the search)`}
        </Text>
        <Box component="ol" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Search results">
          {results.map((result) => (
            <ResultRow key={result.id} projectId={projectId} result={result} />
          ))}
        </Box>
      </Stack>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1000}>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Search
        </Title>
        {q && (
          <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Results for “{q}”
          </Text>
        )}
      </Stack>
      <Group gap="sm" align="flex-end" wrap="wrap" role="group" aria-label="Filters">
        <Select
          label="Department"
          placeholder="All departments"
          clearable
          searchable
          w={{ base: '100%', xs: 240 }}
          data={departmentSelectData(departments.data ?? [])}
          value={departmentId ? String(departmentId) : null}
          onChange={(value) => setFilter('department_id', value)}
          nothingFoundMessage="No such department"
        />
        {seesDrafts && (
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            w={{ base: '100%', xs: 200 }}
            data={DOCUMENT_STATUSES.map((value) => ({ value, label: DOCUMENT_STATUS_LABELS[value] }))}
            value={status}
            onChange={(value) => setFilter('status', value)}
          />
        )}
        <Checkbox
          label="Include archived"
          mb={8}
          checked={includeArchived}
          onChange={(event) => setFilter('include_archived', event.currentTarget.checked ? 'true' : null)}
        />
      </Group>
      {body}
    </Stack>
  );
}

function ResultRow({ projectId, result }: { projectId: string; result: SearchResult }) {
  return (
    <Box
      component="li"
      py="sm"
      data-document-id={result.id}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
    >
      <Stack gap={4}>
        <Group gap={8} wrap="wrap">
          <Anchor
            component={Link}
            to={policyRoute(projectId, `documents/${result.id}`)}
            fw={600}
            style={{ overflowWrap: 'anywhere', minWidth: 0 }}
          >
            {result.number && (
              <Text span inherit mr={6}>
                {result.number}
              </Text>
            )}
            {result.number && ' '}
            {result.title}
          </Anchor>
          <StatusBadge status={result.status} />
        </Group>
        {result.snippet && <Snippet snippet={result.snippet} />}
      </Stack>
    </Box>
  );
}
