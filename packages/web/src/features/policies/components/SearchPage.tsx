import { Anchor, Box, Checkbox, Group, Mark, Stack, Text, Title } from '@mantine/core';
import { SNIPPET_START, SNIPPET_STOP } from '@portal/shared';
import { Fragment, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { usePageTitle } from '../../../lib/use-page-title';
import { type SearchResult, useSearchDocuments } from '../api/search-documents';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

/** How many results one search shows (the server's maximum). */
export const SEARCH_LIMIT = 50;

export interface SnippetPart {
  text: string;
  mark: boolean;
}

/**
 * A snippet cut into plain text and matches: the server marks each match between SNIPPET_START and SNIPPET_STOP.
 * Stray or unbalanced markers are dropped; the text is never read as HTML.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let mark = false;
  let text = '';
  const push = () => {
    if (!text) return;
    const last = parts.at(-1);
    if (last && last.mark === mark) last.text += text;
    else parts.push({ text, mark });
    text = '';
  };
  for (const char of snippet) {
    if (char === SNIPPET_START || char === SNIPPET_STOP) {
      const opens = char === SNIPPET_START;
      if (opens !== mark) {
        push();
        mark = opens;
      }
    } else {
      text += char;
    }
  }
  push();
  return parts;
}

export function Snippet({ snippet }: { snippet: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="snippet">
      {snippetParts(snippet).map((part, index) =>
        part.mark ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
          <Mark key={index}>{part.text}</Mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </Text>
  );
}

/**
 * Route `search`: the results for ?q= (ranked by the server), with their snippets; ?include_archived=true also
 * searches the archive.
 */
export function SearchPage() {
  const projectId = usePolicyProjectId();
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const includeArchived = params.get('include_archived') === 'true';
  usePageTitle(q ? `Search: ${q}` : 'Search');
  const search = useSearchDocuments(projectId, { q, include_archived: includeArchived, limit: SEARCH_LIMIT });

  const setIncludeArchived = (checked: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (checked) next.set('include_archived', 'true');
        else next.delete('include_archived');
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
    const { results, total, total_capped: capped } = search.data;
    const counted = `${total.toLocaleString('en-US')}${capped ? '+' : ''}`;
    body = (
      <Stack gap="sm" style={{ opacity: search.isPlaceholderData ? 0.6 : 1 }} aria-busy={search.isPlaceholderData}>
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
      <Checkbox
        label="Include archived"
        checked={includeArchived}
        onChange={(event) => setIncludeArchived(event.currentTarget.checked)}
      />
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
