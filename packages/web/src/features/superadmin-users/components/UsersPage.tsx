import {
  Anchor,
  Box,
  Button,
  EmptyState,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedCallback, useDisclosure } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { Link, type SetURLSearchParams, useSearchParams } from 'react-router';
import { ListPanel, QueryBody } from '../../../components/page-parts';
import { formatDateTime } from '../../../lib/dates';
import { useProjects } from '../../../lib/project/get-projects';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type SuperUserRow,
  type UserListFilters,
  type UserRoleFilter,
  type UserStatusFilter,
  useUsers,
} from '../api/get-users';
import { NewUserModal } from './NewUserModal';
import { fullName, GLOBAL_ROLE_LABELS, RoleBadge, StatusBadges, USER_STATUS_LABELS } from './user-display';

export const SEARCH_DELAY_MS = 300;
const ROLES: readonly UserRoleFilter[] = ['superadmin', 'user'];
const STATUSES: readonly UserStatusFilter[] = ['active', 'invited', 'disabled', 'locked'];
const CONTROL_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' };
const FILTER_PARAMS = ['q', 'role', 'status', 'project', 'page'] as const;

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  return allowed.includes(value as T) ? (value as T) : null;
}

/** The filters as the URL keeps them (so reload, back and forward keep them); anything unreadable is ignored. */
export function readFilters(params: URLSearchParams): UserListFilters {
  const project = params.get('project') ?? '';
  const page = params.get('page') ?? '';
  return {
    q: params.get('q')?.trim().slice(0, 100) ?? '',
    role: oneOf(params.get('role'), ROLES),
    status: oneOf(params.get('status'), STATUSES),
    project: /^[1-9]\d{0,9}$/.test(project) ? Number(project) : null,
    page: /^[1-9]\d{0,5}$/.test(page) ? Number(page) : 1,
  };
}

/** Sets one filter in the URL and goes back to the first page. */
function changeParam(setParams: SetURLSearchParams, name: string, value: string | null, replace = false) {
  setParams(
    (previous) => {
      const next = new URLSearchParams(previous);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete('page');
      return next;
    },
    { replace },
  );
}

/** /superadmin/users: every account, searched and filtered, and the "New user" form. */
export function UsersPage() {
  usePageTitle('Users');
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const users = useUsers(filters);
  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const search = useSearchBox(filters.q, setParams);

  const hasFilters = Boolean(filters.q || filters.role || filters.status || filters.project);
  const clearFilters = () => {
    search.reset();
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const name of FILTER_PARAMS) next.delete(name);
      return next;
    });
  };
  const goToPage = (page: number) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (page > 1) next.set('page', String(page));
      else next.delete('page');
      return next;
    });

  const total = users.data?.total ?? 0;
  const pages = users.data ? Math.max(1, Math.ceil(users.data.total / users.data.page_size)) : 1;

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
          Users
        </Title>
        <Group gap="sm">
          <Button variant="default" component={Link} to="/superadmin/users/import">
            Import from CSV
          </Button>
          <Button onClick={openCreate}>New user</Button>
        </Group>
      </Group>
      <Filters filters={filters} setParams={setParams} search={search} />
      <Group justify="space-between" gap="sm" mih={24}>
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="users-total">
          {users.data ? `${total.toLocaleString('en-US')} ${total === 1 ? 'user' : 'users'}` : ''}
        </Text>
        {hasFilters && users.data && users.data.users.length > 0 && (
          <Button variant="subtle" size="compact-sm" onClick={clearFilters}>
            Clear filters
          </Button>
        )}
      </Group>
      <ListPanel busy={users.isFetching}>
        <QueryBody
          query={users}
          fallback="The users could not be loaded. Please try again."
          retryLabel="Retry"
          loadingLabel="Loading users"
          rows={6}
          inset
        >
          {(data) =>
            data.users.length === 0 ? (
              <NoUsers
                page={filters.page}
                beyondLastPage={data.total > 0}
                hasFilters={hasFilters}
                onFirstPage={() => goToPage(1)}
                onClearFilters={clearFilters}
              />
            ) : (
              <UsersTable users={data.users} />
            )
          }
        </QueryBody>
      </ListPanel>
      {users.data && pages > 1 && (
        <Group justify="center">
          <Pagination
            total={pages}
            value={Math.min(filters.page, pages)}
            onChange={goToPage}
            aria-label="Pages"
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
          />
        </Group>
      )}
      <NewUserModal opened={creating} onClose={closeCreate} />
    </Stack>
  );
}

interface NoUsersProps {
  page: number;
  beyondLastPage: boolean;
  hasFilters: boolean;
  onFirstPage: () => void;
  onClearFilters: () => void;
}

/** An empty page of the list: past the last page, nothing matching the filters, or no users at all. */
function NoUsers({ page, beyondLastPage, hasFilters, onFirstPage, onClearFilters }: NoUsersProps) {
  return (
    <EmptyState
      py="xl"
      px="md"
      title={
        beyondLastPage ? `There is no page ${page}.` : hasFilters ? 'No users match these filters.' : 'No users yet.'
      }
    >
      <EmptyState.Actions>
        {beyondLastPage ? (
          <Button variant="default" onClick={onFirstPage}>
            Go to the first page
          </Button>
        ) : (
          hasFilters && (
            <Button variant="default" onClick={onClearFilters}>
              Clear filters
            </Button>
          )
        )}
      </EmptyState.Actions>
    </EmptyState>
  );
}

/**
 * The search box: what is typed shows at once and goes to the URL (replacing the history entry) after a pause.
 * A search arriving in the URL from elsewhere (back, forward, a link) replaces what the box shows.
 */
function useSearchBox(q: string, setParams: SetURLSearchParams) {
  const [value, setValue] = useState(q);
  // The search last written to the URL.
  const committed = useRef(q);
  const commit = useDebouncedCallback((typed: string) => {
    committed.current = typed.trim();
    changeParam(setParams, 'q', typed.trim() || null, true);
  }, SEARCH_DELAY_MS);

  useEffect(() => {
    if (q !== committed.current) {
      committed.current = q;
      commit.cancel();
      setValue(q);
    }
  }, [q, commit]);

  return {
    value,
    change: (typed: string) => {
      setValue(typed);
      commit(typed);
    },
    reset: () => {
      commit.cancel();
      committed.current = '';
      setValue('');
    },
  };
}

interface FiltersProps {
  filters: UserListFilters;
  setParams: SetURLSearchParams;
  search: ReturnType<typeof useSearchBox>;
}

function Filters({ filters, setParams, search }: FiltersProps) {
  const projects = useProjects(true);

  const projectOptions = (projects.data ?? []).map((project) => ({ value: String(project.id), label: project.name }));
  // A project filter from the URL that is not (or not yet) in the list still shows as picked.
  if (filters.project && !projectOptions.some((option) => option.value === String(filters.project))) {
    projectOptions.push({ value: String(filters.project), label: `Project ${filters.project}` });
  }

  return (
    <Group align="flex-end" gap="sm" wrap="wrap" role="search" aria-label="Filter users">
      <TextInput
        label="Search"
        type="search"
        placeholder="Name, username or email"
        maxLength={100}
        value={search.value}
        onChange={(event) => search.change(event.currentTarget.value)}
        style={{ flex: '1 1 240px' }}
      />
      <Select
        label="Role"
        placeholder="All roles"
        data={ROLES.map((role) => ({ value: role, label: GLOBAL_ROLE_LABELS[role] }))}
        value={filters.role}
        onChange={(value) => changeParam(setParams, 'role', value)}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the role filter' }}
        style={{ flex: '1 1 150px' }}
      />
      <Select
        label="Status"
        placeholder="All statuses"
        data={STATUSES.map((status) => ({ value: status, label: USER_STATUS_LABELS[status] }))}
        value={filters.status}
        onChange={(value) => changeParam(setParams, 'status', value)}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the status filter' }}
        style={{ flex: '1 1 150px' }}
      />
      <Select
        label="Project"
        placeholder={projects.isError ? 'Projects could not be loaded' : 'All projects'}
        data={projectOptions}
        value={filters.project ? String(filters.project) : null}
        onChange={(value) => changeParam(setParams, 'project', value)}
        searchable
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the project filter' }}
        nothingFoundMessage="No project matches"
        style={{ flex: '1 1 200px' }}
      />
    </Group>
  );
}

function UsersTable({ users }: { users: SuperUserRow[] }) {
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table striped highlightOnHover verticalSpacing="sm" horizontalSpacing="md">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Username</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Two-factor</Table.Th>
            <Table.Th>Last sign-in</Table.Th>
            <Table.Th ta="right">Projects</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user.id} data-user-id={user.id}>
              <Table.Td>
                <Anchor component={Link} to={`/superadmin/users/${user.id}`} fw={600} size="sm">
                  {fullName(user)}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{user.username}</Text>
              </Table.Td>
              <Table.Td>
                <Box component="span" fz="sm" style={{ overflowWrap: 'anywhere' }}>
                  {user.email}
                </Box>
              </Table.Td>
              <Table.Td>
                <RoleBadge role={user.role} />
              </Table.Td>
              <Table.Td>
                <StatusBadges status={user.status} locked={user.locked} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={user.two_factor_enabled ? undefined : 'dimmed'}>
                  {user.two_factor_enabled ? 'On' : 'Off'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{user.last_login_at ? formatDateTime(user.last_login_at) : 'Never'}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{user.project_count}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
