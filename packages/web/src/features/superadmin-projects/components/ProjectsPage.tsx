import {
  Anchor,
  Box,
  Breadcrumbs,
  Button,
  EmptyState,
  Group,
  Pagination,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AppBadge } from '../../../components/AppBadge';
import { formatDate } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type ProjectListParams, type SuperProjectRow, useSuperProjects } from '../api/get-projects';
import { NewProjectModal } from './NewProjectModal';
import { ProjectStatusBadge, QueryLoadError } from './parts';

export const PROJECTS_PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 300;
const STATUSES = [
  { value: 'all', label: 'All projects' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
] as const;
type Status = ProjectListParams['status'];
const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

function readStatus(value: string | null): Status {
  return value === 'active' || value === 'inactive' ? value : 'all';
}

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** /superadmin/projects: every project, active or not, searchable and filtered by status. */
export function ProjectsPage() {
  usePageTitle('Projects');
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim().slice(0, 100);
  const status = readStatus(params.get('status'));
  const page = readPage(params.get('page'));
  const [creating, setCreating] = useState(false);

  // The box keeps what is typed; the address (and the query) follows once typing pauses.
  const [search, setSearch] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    // The address changed from elsewhere (back button, Clear filters): show its search in the box.
    setShownQ(q);
    if (q !== search.trim()) setSearch(q);
  }

  function update(changes: Record<string, string | null>) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  }

  const applySearch = useDebouncedCallback((value: string) => {
    update({ q: value.trim().slice(0, 100) || null, page: null });
  }, SEARCH_DELAY_MS);

  function clearFilters() {
    applySearch.cancel();
    setSearch('');
    update({ q: null, status: null, page: null });
  }

  const listParams: ProjectListParams = { q, status, page, page_size: PROJECTS_PAGE_SIZE };
  const list = useSuperProjects(listParams);
  const filtered = q !== '' || status !== 'all';

  let body: ReactNode;
  if (list.isPending) {
    body = <TableSkeleton />;
  } else if (list.isError && !list.data) {
    body = <QueryLoadError query={list} fallback="The projects could not be loaded. Please try again." />;
  } else {
    const { projects, total, page_size } = list.data;
    const pages = Math.max(1, Math.ceil(total / page_size));
    if (total === 0 && !filtered) {
      body = (
        <EmptyState
          title="No projects yet"
          description="Create the first project to give a facility its apps and its members."
          py="xl"
        >
          <EmptyState.Actions>
            <Button onClick={() => setCreating(true)}>Create the first project</Button>
          </EmptyState.Actions>
        </EmptyState>
      );
    } else if (total === 0) {
      body = (
        <EmptyState title="No projects match your filters" description="Try other words or another status." py="xl">
          <EmptyState.Actions>
            <Button variant="default" onClick={clearFilters}>
              Clear filters
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      );
    } else if (projects.length === 0) {
      body = (
        <EmptyState title={`There is no page ${page}`} description={`The projects fill ${pages} pages.`} py="xl">
          <EmptyState.Actions>
            <Button variant="default" onClick={() => update({ page: null })}>
              Go to the first page
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      );
    } else {
      const first = (list.data.page - 1) * page_size + 1;
      const last = first + projects.length - 1;
      body = (
        <Stack gap="md">
          <ProjectsTable projects={projects} busy={list.isPlaceholderData} />
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {total === 1
                ? 'Showing 1 project'
                : `Showing ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} projects`}
            </Text>
            {pages > 1 && (
              <Box component="nav" aria-label="Pages of projects">
                <Pagination
                  total={pages}
                  value={Math.min(page, pages)}
                  onChange={(next) => update({ page: next === 1 ? null : String(next) })}
                  getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
                  getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
                />
              </Box>
            )}
          </Group>
        </Stack>
      );
    }
  }

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Breadcrumbs component="nav" aria-label="Breadcrumb">
        <Anchor component={Link} to="/superadmin" size="sm">
          Administration
        </Anchor>
        <Text size="sm" c="dimmed">
          Projects
        </Text>
      </Breadcrumbs>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Projects
        </Title>
        <Button onClick={() => setCreating(true)}>New project</Button>
      </Group>
      <Group gap="sm" align="flex-end" role="search" aria-label="Filter projects">
        <TextInput
          label="Search"
          placeholder="Name, slug or facility"
          type="search"
          value={search}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setSearch(value);
            applySearch(value);
          }}
          maxLength={100}
          style={{ flex: '1 1 240px' }}
        />
        <Select
          label="Status"
          data={STATUSES}
          value={status}
          onChange={(value) => update({ status: value === 'all' ? null : value, page: null })}
          allowDeselect={false}
          w={{ base: '100%', xs: 180 }}
        />
      </Group>
      {list.isError && list.data && (
        <QueryLoadError query={list} fallback="The projects could not be loaded. Please try again." />
      )}
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        {body}
      </Paper>
      <NewProjectModal opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function ProjectsTable({ projects, busy }: { projects: SuperProjectRow[]; busy: boolean }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table
        verticalSpacing="sm"
        horizontalSpacing="md"
        striped
        aria-label="Projects"
        aria-busy={busy}
        style={{ opacity: busy ? 0.6 : 1 }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Slug</Table.Th>
            <Table.Th scope="col">Facility</Table.Th>
            <Table.Th scope="col">Active apps</Table.Th>
            <Table.Th scope="col" ta="right">
              Members
            </Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {projects.map((project) => (
            <Table.Tr key={project.id} data-project-id={project.id}>
              <Table.Td>
                <Anchor component={Link} to={`/superadmin/projects/${project.id}`} fw={600}>
                  {project.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {project.slug}
                </Text>
              </Table.Td>
              <Table.Td>
                {project.facility_name || (
                  <Text size="sm" c="dimmed">
                    Not set
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {project.active_apps.length > 0 ? (
                  <Group gap={4}>
                    {project.active_apps.map((app) => (
                      <AppBadge key={app} app={app} />
                    ))}
                  </Group>
                ) : (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">{project.member_count.toLocaleString('en-US')}</Table.Td>
              <Table.Td>
                <ProjectStatusBadge active={project.is_active} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(project.created_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function TableSkeleton() {
  return (
    <Stack gap="xs" role="status" aria-label="Loading projects">
      <Skeleton height={36} radius="sm" />
      {[0, 1, 2, 3, 4].map((index) => (
        <Skeleton key={index} height={44} radius="sm" />
      ))}
    </Stack>
  );
}
