import { Anchor, Badge, Box, Flex, Group, NavLink, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { DocumentRow } from '@portal/shared';
import { type ReactNode, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { usePageTitle } from '../../../lib/use-page-title';
import { type Department, useDepartments } from '../api/get-departments';
import { useDocuments } from '../api/get-documents';
import { byNumber, departmentOptions } from './browse-ui';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

/** The `department` search parameter of the documents that belong to no department. */
export const NO_DEPARTMENT = 'none';

/**
 * Route `navigator`: browse the policies by department. The departments (nested by parent) on the left, the
 * chosen one's documents in number order on the right (?department={id}, or ?department=none); on a phone the
 * two stack.
 */
export function NavigatorPage() {
  usePageTitle('Navigator');
  const projectId = usePolicyProjectId();
  const documents = useDocuments(projectId);
  const departments = useDepartments(projectId);
  const [params] = useSearchParams();
  const selected = params.get('department');

  let body: ReactNode;
  if (documents.isPending || departments.isPending) {
    body = <LoadingRows label="Loading the departments" />;
  } else if (documents.isError || departments.isError) {
    const failed = documents.isError ? documents : departments;
    body = (
      <LoadFailure
        error={failed.error}
        fallback="The departments could not be loaded. Please try again."
        retrying={documents.isFetching || departments.isFetching}
        onRetry={() => {
          if (documents.isError) void documents.refetch();
          if (departments.isError) void departments.refetch();
        }}
      />
    );
  } else {
    body = (
      <NavigatorBody
        projectId={projectId}
        documents={documents.data}
        departments={departments.data}
        selected={selected}
      />
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Navigator
      </Title>
      {body}
    </Stack>
  );
}

interface NavigatorBodyProps {
  projectId: string;
  documents: DocumentRow[];
  departments: Department[];
  selected: string | null;
}

function NavigatorBody({ projectId, documents, departments, selected }: NavigatorBodyProps) {
  const options = useMemo(() => departmentOptions(departments), [departments]);
  const counts = useMemo(() => {
    const result = new Map<string, number>();
    for (const doc of documents) {
      const key = doc.department_id === null ? NO_DEPARTMENT : String(doc.department_id);
      result.set(key, (result.get(key) ?? 0) + 1);
    }
    return result;
  }, [documents]);
  const byId = useMemo(
    () => new Map(departments.map((department) => [String(department.id), department])),
    [departments],
  );

  const link = (key: string, label: string, depth: number, code?: string) => {
    const count = counts.get(key) ?? 0;
    return (
      <NavLink
        key={key}
        component={Link}
        to={{ search: `?department=${key}` }}
        active={selected === key}
        aria-current={selected === key ? 'page' : undefined}
        label={label}
        description={code}
        pl={`calc(var(--mantine-spacing-sm) + ${Math.min(depth, 8) * 16}px)`}
        rightSection={
          <Badge variant="light" color="gray" radius="sm" data-testid={`count-${key}`}>
            {count}
            <VisuallyHidden>{count === 1 ? ' policy' : ' policies'}</VisuallyHidden>
          </Badge>
        }
      />
    );
  };

  let pane: ReactNode;
  if (selected === null) {
    pane = <Text c="dimmed">Choose a department to see its policies.</Text>;
  } else if (selected !== NO_DEPARTMENT && !byId.has(selected)) {
    pane = (
      <Text role="alert" c="red.8">
        Department not found. Choose one from the list.
      </Text>
    );
  } else {
    const department = selected === NO_DEPARTMENT ? null : byId.get(selected)!;
    const shown = documents
      .filter((doc) => (department ? doc.department_id === department.id : doc.department_id === null))
      .sort(byNumber);
    pane = (
      <Stack gap="sm">
        <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
          {department ? `${department.name} (${department.code})` : 'No department'}
        </Title>
        {shown.length === 0 ? (
          <Text c="dimmed">No policies found.</Text>
        ) : (
          <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Policies of the department">
            {shown.map((doc) => (
              <Box
                component="li"
                key={doc.id}
                py={6}
                data-document-id={doc.id}
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
              >
                <Group gap={8} wrap="wrap">
                  <Anchor
                    component={Link}
                    to={policyRoute(projectId, `documents/${doc.id}`)}
                    style={{ overflowWrap: 'anywhere', minWidth: 0 }}
                  >
                    {doc.number && (
                      <Text span fw={600} inherit mr={6}>
                        {doc.number}
                      </Text>
                    )}
                    {doc.number && ' '}
                    {doc.title}
                  </Anchor>
                  <StatusBadge status={doc.status} />
                </Group>
              </Box>
            ))}
          </Box>
        )}
      </Stack>
    );
  }

  return (
    <Flex direction={{ base: 'column', md: 'row' }} gap="lg" align={{ base: 'stretch', md: 'flex-start' }}>
      <Paper
        component="nav"
        aria-label="Departments"
        withBorder
        radius="md"
        p={4}
        w={{ base: '100%', md: 320 }}
        style={{ flexShrink: 0 }}
      >
        {options.length === 0 && (
          <Text size="sm" c="dimmed" p="sm">
            No departments yet.
          </Text>
        )}
        {options.map((option) => link(option.value, option.label, option.depth, byId.get(option.value)?.code))}
        {link(NO_DEPARTMENT, 'No department', 0)}
      </Paper>
      <Box style={{ flex: 1, minWidth: 0 }} component="section" aria-label="Policies">
        {pane}
      </Box>
    </Flex>
  );
}
