import { Badge, Button, Group, List, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { MONITORING_MAIN_ROLES } from '@portal/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { type MonitoringMainRoleChange, useSetMonitoringMainRoles } from '../api/people-main-roles';
import { type MonitoringPerson, useMonitoringPeople } from '../api/people-users';
import { FailureAlert, indexedErrors, MONITORING_ROLE_DESCRIPTIONS, PeopleCard } from './people-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const TITLE = 'Main roles';
export const NO_MONITORING_USERS = 'Nobody takes part in monitoring yet.';
export const EVERYONE_HAS_A_ROLE = 'Every monitoring user has a main role.';
export const NOBODY_HAS_A_ROLE = 'Nobody has a main role yet.';

/** The Select's value for "no role". */
const NONE = '';
const OPTIONS = [
  { value: NONE, label: 'No role' },
  ...MONITORING_MAIN_ROLES.map((role) => ({ value: role, label: roleLabel(role) })),
];

export function saveLabel(count: number): string {
  return count === 1 ? 'Save 1 change' : `Save ${count.toLocaleString('en-US')} changes`;
}

/**
 * /app/monitoring/{projectId}/assign-main-role: the monitoring users without and with a main role, a role per
 * person, saved together in one bulk call (nothing is saved when one of them is refused).
 */
export function MonitoringMainRolesPage() {
  usePageTitle(TITLE);
  const projectId = useMonitoringProjectId();
  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={TITLE}>
        A monitoring user's main role decides what they may do in monitoring.{' '}
        <Link to={monitoringRoute(projectId, 'manage-users')}>Add or remove monitoring users</Link>
      </PageHeading>
      <RoleGuide />
      <MainRolesScreen projectId={projectId} />
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
          {MONITORING_MAIN_ROLES.map((role) => (
            <List.Item key={role}>
              <Text span fw={600} size="sm">
                {roleLabel(role)}:
              </Text>{' '}
              {MONITORING_ROLE_DESCRIPTIONS[role]}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}

function MainRolesScreen({ projectId }: { projectId: string }) {
  const list = useMonitoringPeople(projectId, 'assigned');
  const save = useSetMonitoringMainRoles(projectId);
  /** The roles chosen per user id (NONE for "no role"); only rows whose value differs from the saved one count. */
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(new Map());
  const [rowErrors, setRowErrors] = useState<ReadonlyMap<number, string>>(new Map());
  const [failure, setFailure] = useState<string | null>(null);

  if (list.isPending) return <LoadingRows label="Loading the monitoring users" />;
  if (list.isError) {
    return (
      <LoadFailure
        error={list.error}
        fallback="The monitoring users could not be loaded. Please try again."
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  }
  const people = list.data;
  if (people.length === 0) {
    return (
      <Text>
        {NO_MONITORING_USERS} <Link to={monitoringRoute(projectId, 'assign-users')}>Add people to monitoring</Link>
      </Text>
    );
  }

  const saved = (person: MonitoringPerson) => person.main_role ?? NONE;
  const currentRole = (person: MonitoringPerson) => chosen.get(person.id) ?? saved(person);
  const changes: MonitoringMainRoleChange[] = people
    .filter((person) => currentRole(person) !== saved(person))
    .map((person) => ({
      user_id: person.id,
      main_role: (currentRole(person) || null) as MonitoringMainRoleChange['main_role'],
    }));
  const without = people.filter((person) => person.main_role === null);
  const withRole = people.filter((person) => person.main_role !== null);

  function choose(person: MonitoringPerson, value: string | null) {
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
      const byUser = new Map<number, string>();
      for (const [index, message] of indexedErrors(error, /^items\.(\d+)(?:\.|$)/)) {
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

  const table = (rows: MonitoringPerson[], labelledBy: string) => (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="sm" aria-labelledby={labelledBy}>
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
          {rows.map((person) => {
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
                    data={OPTIONS}
                    value={currentRole(person)}
                    onChange={(value) => choose(person, value)}
                    allowDeselect={false}
                    disabled={save.isPending}
                    error={rowErrors.get(person.id)}
                    comboboxProps={{ withinPortal: true }}
                  />
                </Table.Td>
                <Table.Td>
                  {changed && (
                    <Badge variant="light" color="blue.8" title={`Was: ${roleLabel(person.main_role)}`}>
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
  );

  return (
    <>
      <FailureAlert message={failure} onClose={() => setFailure(null)} />
      <PeopleCard id="without-role-heading" title="Monitoring users without a main role">
        {without.length === 0 ? <Text>{EVERYONE_HAS_A_ROLE}</Text> : table(without, 'without-role-heading')}
      </PeopleCard>
      <PeopleCard id="with-role-heading" title="Monitoring users with a main role">
        {withRole.length === 0 ? <Text>{NOBODY_HAS_A_ROLE}</Text> : table(withRole, 'with-role-heading')}
      </PeopleCard>
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
