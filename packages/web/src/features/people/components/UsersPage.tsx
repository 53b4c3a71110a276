import { Alert, Anchor, Badge, Button, Checkbox, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { permissionKey } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { FailureAlert, LoadingRows, PageHeading, QueryFailure, SectionCard } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { type AppPerson, peopleCount, usePeople } from '../../../lib/people';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { useAssignUsers, useUpdateUsers } from '../api/users';
import { type PeopleScreens, screenRoute } from '../apps';
import { UsersNotLoaded } from './people-parts';
import { usePeopleProjectId } from './use-people-project';

export const NO_MATCH = 'Nobody matches the search.';

/** Whether a person matches the search text (name, username or email, any case). */
function matches(person: AppPerson, search: string): boolean {
  const words = search.trim().toLowerCase();
  if (!words) return true;
  return [person.name, person.username, person.email].some((value) => value.toLowerCase().includes(words));
}

interface Props {
  d: PeopleScreens;
  projectId: string;
  search: string;
}

/**
 * The users screen of an app (/app/policy_management/{projectId}/policy-users, /app/monitoring/{projectId}/assign-users
 * and their other paths, PeopleScreens.users): which project members take part in the app; add members, remove
 * users (they lose their main role there and what the app ties to it, PeopleScreens.removal).
 */
export function UsersPage({ d }: { d: PeopleScreens }) {
  const { names } = d;
  usePageTitle(names.title);
  const projectId = usePeopleProjectId(d);
  const [search, setSearch] = useState('');
  const [addedWithoutRole, setAddedWithoutRole] = useState(false);
  const assigned = usePeople(d.app, projectId, 'assigned');
  const withoutRole = assigned.data?.filter((person) => person.main_role === null).length ?? 0;
  const permissions = useQuery(myPermissionsQueryOptions(d.app, projectId));
  const mayRequestUsers = permissions.data?.[permissionKey(d.app, d.createUser)] === true;
  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={names.title}>
        The members of the project who take part in {names.app}. Each one also needs a main role to open {d.opens}.
      </PageHeading>
      {d.search && (
        <TextInput
          type="search"
          label="Search people"
          placeholder="Name, username or email"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={420}
        />
      )}
      {addedWithoutRole && withoutRole > 0 && (
        <Alert
          color="blue"
          variant="light"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setAddedWithoutRole(false)}
        >
          {withoutRole === 1 ? `1 ${names.user} has` : `${withoutRole.toLocaleString('en-US')} ${names.users} have`} no
          main role yet and cannot open {d.opens}.{' '}
          <Anchor component={Link} to={screenRoute(d, projectId, 'assign-main-role')}>
            Assign main roles
          </Anchor>
        </Alert>
      )}
      <SectionCard id="app-people-heading" title={`People in ${names.app}`}>
        <UsersSection d={d} projectId={projectId} search={search} />
      </SectionCard>
      <SectionCard id="add-people-heading" title="Add people">
        <AddSection d={d} projectId={projectId} search={search} onAdded={() => setAddedWithoutRole(true)} />
        <Text size="sm">
          {mayRequestUsers ? (
            <Anchor component={Link} to={screenRoute(d, projectId, d.createUser)}>
              Someone is missing? Request a new user
            </Anchor>
          ) : (
            <Anchor component={Link} to={`/app/admin/${projectId}/new-user-request`}>
              A person is not a member of the project yet? Ask for a new user
            </Anchor>
          )}
        </Text>
      </SectionCard>
    </Stack>
  );
}

function UsersSection({ d, projectId, search }: Props) {
  const { names } = d;
  const list = usePeople(d.app, projectId, 'assigned');
  const update = useUpdateUsers(d.app, projectId);
  const [removing, setRemoving] = useState<AppPerson | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (!list.isSuccess) return <UsersNotLoaded d={d} list={list} />;
  const people = list.data;
  const shown = people.filter((person) => matches(person, search));

  async function removeNow(person: AppPerson) {
    setRemoving(null);
    setFailure(null);
    try {
      await update.mutateAsync(people.filter((item) => item.id !== person.id).map((item) => item.id));
      toast.success(`Removed ${person.name}.`);
    } catch (error) {
      setFailure(messageFor(error, `${person.name} could not be removed. Please try again.`));
    }
  }

  const busyId = update.isPending ? people.find((person) => !update.variables?.includes(person.id))?.id : undefined;

  return (
    <>
      <FailureAlert message={failure} onClose={() => setFailure(null)} />
      {people.length === 0 ? (
        <Text>{`Nobody takes part in ${names.app} yet.`}</Text>
      ) : shown.length === 0 ? (
        <Text>{NO_MATCH}</Text>
      ) : (
        <ScrollTable
          minWidth={640}
          verticalSpacing="sm"
          highlightOnHover
          aria-labelledby="app-people-heading"
          columns={['Name', 'Username', 'Email', 'Main role']}
          actions
        >
          {shown.map((person) => (
            <Table.Tr key={person.id} data-app-user-id={person.id}>
              <Table.Td>{person.name}</Table.Td>
              <Table.Td>{person.username}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{person.email}</Table.Td>
              <Table.Td>
                {person.main_role === null ? (
                  <Badge color="yellow" c="yellow.9" variant="light">
                    No role yet
                  </Badge>
                ) : (
                  roleLabel(person.main_role)
                )}
              </Table.Td>
              <Table.Td>
                <Group justify="flex-end" wrap="nowrap">
                  <Button
                    variant="subtle"
                    color="red.8"
                    size="compact-sm"
                    aria-label={`Remove ${person.name}`}
                    loading={busyId === person.id}
                    disabled={update.isPending && busyId !== person.id}
                    onClick={() => {
                      setFailure(null);
                      setRemoving(person);
                    }}
                  >
                    Remove
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </ScrollTable>
      )}
      <ConfirmActionModal
        opened={removing !== null}
        title={`Remove from ${names.app}?`}
        message={removing ? `Remove ${removing.name} from ${names.app}? ${d.removal}` : ''}
        confirmLabel="Remove"
        danger
        onConfirm={() => removing && void removeNow(removing)}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}

function AddSection({ d, projectId, search, onAdded }: Props & { onAdded: () => void }) {
  const list = usePeople(d.app, projectId, 'unassigned');
  const assign = useAssignUsers(d.app, projectId);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);

  if (list.isPending) return <LoadingRows label="Loading the project members" />;
  if (list.isError) {
    return <QueryFailure query={list} fallback="The project members could not be loaded. Please try again." />;
  }
  const people = list.data;
  if (people.length === 0) return <Text>{`Every member of the project takes part in ${d.names.app}.`}</Text>;
  const shown = people.filter((person) => matches(person, search));
  // Only people still listed count (someone added meanwhile drops out of the list).
  const selected = people.filter((person) => chosen.has(person.id)).map((person) => person.id);
  const allShown = shown.length > 0 && shown.every((person) => chosen.has(person.id));
  const someShown = shown.some((person) => chosen.has(person.id));

  function toggle(ids: number[], on: boolean) {
    setChosen((previous) => {
      const next = new Set(previous);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }

  async function add() {
    if (selected.length === 0 || assign.isPending) return;
    setFailure(null);
    try {
      await assign.mutateAsync(selected);
      toast.success(`Added ${peopleCount(selected.length)}.`);
      setChosen(new Set());
      onAdded();
    } catch (error) {
      setFailure(messageFor(error, 'The people could not be added. Please try again.'));
    }
  }

  return (
    <>
      <FailureAlert message={failure} onClose={() => setFailure(null)} />
      {shown.length === 0 ? (
        <Text>{NO_MATCH}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" highlightOnHover aria-labelledby="add-people-heading">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w={48}>
                  <Checkbox
                    // Without a search box everyone is listed.
                    aria-label={d.search ? 'Choose everyone listed' : 'Choose everyone'}
                    checked={allShown}
                    indeterminate={someShown && !allShown}
                    onChange={(event) =>
                      toggle(
                        shown.map((person) => person.id),
                        event.currentTarget.checked,
                      )
                    }
                  />
                </Table.Th>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Username</Table.Th>
                <Table.Th scope="col">Email</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((person) => (
                <Table.Tr
                  key={person.id}
                  data-member-id={person.id}
                  bg={chosen.has(person.id) ? 'var(--mantine-primary-color-light)' : undefined}
                >
                  <Table.Td>
                    <Checkbox
                      aria-label={`Choose ${person.name}`}
                      checked={chosen.has(person.id)}
                      onChange={(event) => toggle([person.id], event.currentTarget.checked)}
                    />
                  </Table.Td>
                  <Table.Td>{person.name}</Table.Td>
                  <Table.Td>{person.username}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{person.email}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group gap="sm">
        <Button onClick={() => void add()} loading={assign.isPending} disabled={selected.length === 0}>
          {`Add to ${d.names.app}`}
        </Button>
        <Text size="sm" c="dimmed" aria-live="polite">
          {selected.length === 0 ? 'Choose the people to add.' : `${peopleCount(selected.length)} chosen.`}
        </Text>
      </Group>
    </>
  );
}
