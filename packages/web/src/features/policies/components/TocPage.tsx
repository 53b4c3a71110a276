import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { DOCUMENT_STATUS_LABELS, DOCUMENT_STATUSES, type DocumentStatus } from '@portal/shared';
import { type ReactNode, useDeferredValue, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDepartments } from '../api/get-departments';
import { type DocumentFilters, useDocuments } from '../api/get-documents';
import { departmentOptions, matchesText } from './browse-ui';
import { NewPolicyButton } from './NewPolicyButton';
import { PolicyTree } from './PolicyTree';
import { usePolicyProjectId } from './use-policy-project';

const ALL = 'all';

function isStatus(value: string | null): value is DocumentStatus {
  return value !== null && (DOCUMENT_STATUSES as readonly string[]).includes(value);
}

/**
 * Route `toc` ("Table of contents"): every policy as a tree by number. Department and status filter on the server
 * (kept in the URL: ?department=&status=); the text filter narrows the tree as you type.
 */
export function TocPage() {
  usePageTitle('Table of contents');
  const projectId = usePolicyProjectId();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState('');
  const query = useDeferredValue(text.trim());

  const departmentParam = params.get('department');
  const departmentId = departmentParam && /^\d{1,10}$/.test(departmentParam) ? Number(departmentParam) : undefined;
  const statusParam = params.get('status');
  const status = isStatus(statusParam) ? statusParam : undefined;
  const filters: DocumentFilters = { department_id: departmentId, status };

  const documents = useDocuments(projectId, filters);
  const departments = useDepartments(projectId);
  const departmentTree = useMemo(() => departmentOptions(departments.data ?? []), [departments.data]);
  const departmentChoices = [
    { value: ALL, label: 'All departments' },
    ...departmentTree.map(({ value, label }) => ({ value, label })),
  ];
  const departmentDepth = new Map(departmentTree.map((option) => [option.value, option.depth]));
  const statusChoices = [
    { value: ALL, label: 'All statuses (not archived)' },
    ...DOCUMENT_STATUSES.map((value) => ({ value, label: DOCUMENT_STATUS_LABELS[value] })),
  ];

  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (!value || value === ALL) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );

  const matched = useMemo(
    () => (documents.data ?? []).filter((doc) => matchesText(doc, query)).length,
    [documents.data, query],
  );
  const filtering = departmentId !== undefined || status !== undefined || query !== '';

  let body: ReactNode;
  if (documents.isPending) {
    body = <LoadingRows label="Loading the policies" />;
  } else if (documents.isError) {
    body = (
      <LoadFailure
        error={documents.error}
        fallback="The policies could not be loaded. Please try again."
        retrying={documents.isFetching}
        onRetry={() => void documents.refetch()}
      />
    );
  } else if (matched === 0) {
    body = (
      <Stack gap="sm" align="flex-start">
        <Text c="dimmed">No policies found.</Text>
        {filtering && (
          <Button
            variant="default"
            onClick={() => {
              setText('');
              setParams(new URLSearchParams(), { replace: true });
            }}
          >
            Clear the filters
          </Button>
        )}
      </Stack>
    );
  } else {
    const total = documents.data.length;
    body = (
      <Stack gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="toc-count">
          {query
            ? `${matched.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${total === 1 ? 'document' : 'documents'}`
            : `${total.toLocaleString('en-US')} ${total === 1 ? 'document' : 'documents'}`}
        </Text>
        <PolicyTree documents={documents.data} projectId={projectId} filter={query} label="Table of contents" />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Group justify="space-between" gap="sm">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Table of contents
        </Title>
        <NewPolicyButton />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Select
          label="Department"
          data={departmentChoices}
          value={departmentId !== undefined ? String(departmentId) : ALL}
          onChange={(value) => setParam('department', value)}
          allowDeselect={false}
          searchable
          renderOption={({ option }) => (
            <Text size="sm" pl={(departmentDepth.get(option.value) ?? 0) * 14}>
              {option.label}
            </Text>
          )}
          disabled={departments.isError}
          description={departments.isError ? 'The departments could not be loaded.' : undefined}
        />
        <Select
          label="Status"
          data={statusChoices}
          value={status ?? ALL}
          onChange={(value) => setParam('status', value)}
          allowDeselect={false}
        />
        <TextInput
          label="Filter by number or title"
          type="search"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          maxLength={200}
        />
      </SimpleGrid>
      {body}
    </Stack>
  );
}
