import { Alert, Badge, Button, Group, List, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { POLICY_MAIN_ROLES } from '@portal/shared';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { toast } from 'sonner';
import { LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { mainRoleOptions, roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { type PolicyPerson, usePolicyPeople } from '../api/get-policy-people';
import { type MainRoleChange, useSetMainRoles } from '../api/set-main-role';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

export type MainRolesMode = 'assign' | 'edit';

export const EVERYONE_HAS_A_ROLE = 'Every policy user has a main role.';
export const NOBODY_HAS_A_ROLE = 'Nobody has a main role yet.';

/** What each main role may do in policy management. */
export const POLICY_ROLE_DESCRIPTIONS: Record<(typeof POLICY_MAIN_ROLES)[number], string> = {
  policy_admin: 'Everything, including numbering, departments, people and import.',
  author: 'Writes drafts and new versions.',
  reviewer: 'Reviews the drafts of their departments.',
  signer: 'Signs policies.',
  reader: 'Reads and acknowledges published policies.',
};

const SCREENS = {
  assign: { title: 'Assign main roles', list: 'unassigned-main-role', empty: EVERYONE_HAS_A_ROLE },
  edit: { title: 'Main roles', list: 'assigned-main-role', empty: NOBODY_HAS_A_ROLE },
} as const;

/** The Select's value for "no role" (the options of role-labels use an empty string). */
const NONE = '';

export function saveLabel(count: number): string {
  return count === 1 ? 'Save 1 change' : `Save ${count.toLocaleString('en-US')} changes`;
}

/**
 * /app/policy_management/{projectId}/assign-main-role (mode 'assign': the policy users without a main role) and
 * /edit-main-role (mode 'edit': those with one). `mode` defaults from the path's last segment.
 */
export function MainRolesPage({ mode }: { mode?: MainRolesMode }) {
  const { pathname } = useLocation();
  const last = pathname.replace(/\/+$/, '').split('/').pop();
  const actual: MainRolesMode = mode ?? (last === 'assign-main-role' ? 'assign' : 'edit');
  const screen = SCREENS[actual];
  usePageTitle(screen.title);
  const projectId = usePolicyProjectId();
  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={screen.title}>
        A policy user's main role decides what they may do in policy management.{' '}
        {actual === 'assign' ? (
          <Link to={policyRoute(projectId, 'edit-main-role')}>Change the roles already given</Link>
        ) : (
          <Link to={policyRoute(projectId, 'assign-main-role')}>Give a role to those without one</Link>
        )}
      </PageHeading>
      <RoleGuide />
      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby="main-roles-heading"
      >
        <Stack gap="md">
          <Title order={2} fz="h4" id="main-roles-heading">
            {actual === 'assign' ? 'Policy users without a main role' : 'Policy users with a main role'}
          </Title>
          <MainRolesScreen key={actual} projectId={projectId} mode={actual} />
        </Stack>
      </Paper>
    </Stack>
  );
}

function RoleGuide() {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="role-guide-heading">
      <Stack gap="xs">
        <Title order={2} fz="h5" id="role-guide-heading">
          What each role may do
        </Title>
        <List size="sm" spacing={4} data-testid="role-guide">
          {POLICY_MAIN_ROLES.map((role) => (
            <List.Item key={role}>
              <Text span fw={600} size="sm">
                {roleLabel(role)}:
              </Text>{' '}
              {POLICY_ROLE_DESCRIPTIONS[role]}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}

/** The first message per item index of a 400's `errors` (keys `items.{index}`). */
function itemErrors(error: unknown): Map<number, string> {
  const found = new Map<number, string>();
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return found;
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return found;
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    const match = /^items\.(\d+)(?:\.|$)/.exec(key);
    const first = Array.isArray(value) ? value[0] : value;
    if (match && typeof first === 'string' && first.trim()) {
      const index = Number(match[1]);
      if (!found.has(index)) found.set(index, first);
    }
  }
  return found;
}

function MainRolesScreen({ projectId, mode }: { projectId: string; mode: MainRolesMode }) {
  const screen = SCREENS[mode];
  const list = usePolicyPeople(projectId, screen.list);
  const save = useSetMainRoles(projectId);
  /** The roles chosen per user id (NONE for "no role"); only rows whose value differs from the saved one count. */
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(new Map());
  const [rowErrors, setRowErrors] = useState<ReadonlyMap<number, string>>(new Map());
  const [failure, setFailure] = useState<string | null>(null);

  if (list.isPending) return <LoadingRows label="Loading the policy users" />;
  if (list.isError) {
    return (
      <LoadFailure
        error={list.error}
        fallback="The policy users could not be loaded. Please try again."
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  }
  const people = list.data;
  if (people.length === 0) return <Text>{screen.empty}</Text>;

  const saved = (person: PolicyPerson) => person.main_role ?? NONE;
  const currentRole = (person: PolicyPerson) => chosen.get(person.id) ?? saved(person);
  const changes: MainRoleChange[] = people
    .filter((person) => currentRole(person) !== saved(person))
    .map((person) => ({
      user_id: person.id,
      main_role: (currentRole(person) || null) as MainRoleChange['main_role'],
    }));
  const options =
    mode === 'edit'
      ? mainRoleOptions('policy_management')
      : mainRoleOptions('policy_management').filter((option) => option.value !== NONE);

  function choose(person: PolicyPerson, value: string | null) {
    setChosen((previous) => new Map(previous).set(person.id, value ?? NONE));
    setRowErrors((previous) => {
      if (!previous.has(person.id)) return previous;
      const next = new Map(previous);
      next.delete(person.id);
      return next;
    });
  }

  async function submit() {
    if (changes.length === 0 || save.isPending) return;
    setFailure(null);
    setRowErrors(new Map());
    const items = changes;
    try {
      await save.mutateAsync(items);
      toast.success(items.length === 1 ? 'Saved 1 change.' : `Saved ${items.length.toLocaleString('en-US')} changes.`);
      setChosen(new Map());
    } catch (error) {
      const byIndex = itemErrors(error);
      const byUser = new Map<number, string>();
      for (const [index, message] of byIndex) {
        const item = items[index];
        if (item) byUser.set(item.user_id, message);
      }
      setRowErrors(byUser);
      setFailure(
        messageFor(error, 'The roles could not be saved. Please try again.') +
          (byUser.size > 0 ? ' Nothing was saved; see the marked rows.' : ''),
      );
    }
  }

  return (
    <>
      {failure && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Username</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col" w={240}>
                Main role
              </Table.Th>
              <Table.Th scope="col" w={110}>
                Change
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {people.map((person) => {
              const changed = currentRole(person) !== saved(person);
              return (
                <Table.Tr
                  key={person.id}
                  data-user-id={person.id}
                  data-changed={changed || undefined}
                  bg={changed ? 'var(--mantine-primary-color-light)' : undefined}
                >
                  <Table.Td>{person.name}</Table.Td>
                  <Table.Td>{person.username}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{person.email}</Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`Main role of ${person.name}`}
                      data={options}
                      value={mode === 'assign' && currentRole(person) === NONE ? null : currentRole(person)}
                      onChange={(value) => choose(person, value)}
                      placeholder="Choose a role"
                      clearable={mode === 'assign'}
                      allowDeselect={false}
                      disabled={save.isPending}
                      error={rowErrors.get(person.id)}
                      comboboxProps={{ withinPortal: true }}
                    />
                  </Table.Td>
                  <Table.Td>
                    {changed && (
                      <Badge variant="light" title={`Was: ${roleLabel(person.main_role)}`}>
                        Changed
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group gap="sm">
        <Button onClick={() => void submit()} loading={save.isPending} disabled={changes.length === 0}>
          {saveLabel(changes.length)}
        </Button>
        {changes.length > 0 && (
          <Button
            variant="default"
            disabled={save.isPending}
            onClick={() => {
              setChosen(new Map());
              setRowErrors(new Map());
              setFailure(null);
            }}
          >
            Undo changes
          </Button>
        )}
      </Group>
    </>
  );
}
