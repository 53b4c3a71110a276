import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { permissionKey } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { myPermissionsQueryOptions } from '../../../lib/permissions';
import { roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { type PolicyPerson, usePolicyPeople } from '../api/get-policy-people';
import { useAssignPolicyUsers, useUpdatePolicyUsers } from '../api/update-policy-users';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

export const NO_POLICY_USERS = 'Nobody takes part in policy management yet.';
export const EVERYONE_TAKES_PART = 'Every member of the project takes part in policy management.';

const TITLE = 'Policy users';

export function peopleCount(count: number): string {
  return count === 1 ? '1 person' : `${count.toLocaleString('en-US')} people`;
}

/**
 * /app/policy_management/{projectId}/policy-users (also assign-users and manage-users): which project members take
 * part in policy management; add members, remove policy users.
 */
export function PolicyUsersPage() {
  usePageTitle(TITLE);
  const projectId = usePolicyProjectId();
  // After an add: how many of the policy users still have no main role (shown as a hint until dismissed).
  const [addedWithoutRole, setAddedWithoutRole] = useState(false);
  const assigned = usePolicyPeople(projectId, 'assigned');
  const withoutRole = assigned.data?.filter((person) => person.main_role === null).length ?? 0;
  const permissions = useQuery(myPermissionsQueryOptions('policy_management', projectId));
  const mayRequestUsers = permissions.data?.[permissionKey('policy_management', 'create-project-user')] === true;
  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={TITLE}>
        The members of the project who take part in policy management. Each one also needs a main role to open the
        policies.
      </PageHeading>
      {addedWithoutRole && withoutRole > 0 && (
        <Alert
          color="blue"
          variant="light"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setAddedWithoutRole(false)}
        >
          {withoutRole === 1 ? '1 policy user has' : `${withoutRole.toLocaleString('en-US')} policy users have`} no main
          role yet and cannot open the policies.{' '}
          <Anchor component={Link} to={policyRoute(projectId, 'assign-main-role')}>
            Assign main roles
          </Anchor>
        </Alert>
      )}
      <Card id="policy-people-heading" title="People in policy management">
        <PolicyUsersSection projectId={projectId} />
      </Card>
      <Card id="add-people-heading" title="Add people">
        <AddPeopleSection projectId={projectId} onAdded={() => setAddedWithoutRole(true)} />
        <Text size="sm">
          {mayRequestUsers ? (
            <Anchor component={Link} to={policyRoute(projectId, 'create-project-user')}>
              Someone is missing? Request a new user
            </Anchor>
          ) : (
            <Anchor component={Link} to={`/app/admin/${projectId}/new-user-request`}>
              A person is not a member of the project yet? Ask for a new user
            </Anchor>
          )}
        </Text>
      </Card>
    </Stack>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Title order={2} fz="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function PolicyUsersSection({ projectId }: { projectId: string }) {
  const list = usePolicyPeople(projectId, 'assigned');
  const update = useUpdatePolicyUsers(projectId);
  const [removing, setRemoving] = useState<PolicyPerson | null>(null);
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

  async function removeNow(person: PolicyPerson) {
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
      {failure && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      {people.length === 0 ? (
        <Text>{NO_POLICY_USERS}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Username</Table.Th>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Main role</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {people.map((person) => (
                <Table.Tr key={person.id} data-policy-user-id={person.id}>
                  <Table.Td>{person.name}</Table.Td>
                  <Table.Td>{person.username}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{person.email}</Table.Td>
                  <Table.Td>
                    {person.main_role === null ? (
                      <Badge color="yellow" variant="light">
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
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmActionModal
        opened={removing !== null}
        title="Remove from policy management?"
        message={
          removing
            ? `Remove ${removing.name} from policy management? They lose their policy role and see the policies no more.`
            : ''
        }
        confirmLabel="Remove"
        danger
        onConfirm={() => removing && void removeNow(removing)}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}

function AddPeopleSection({ projectId, onAdded }: { projectId: string; onAdded: () => void }) {
  const list = usePolicyPeople(projectId, 'unassigned');
  const assign = useAssignPolicyUsers(projectId);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);

  if (list.isPending) return <LoadingRows label="Loading the project members" />;
  if (list.isError) {
    return (
      <LoadFailure
        error={list.error}
        fallback="The project members could not be loaded. Please try again."
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  }
  const people = list.data;
  if (people.length === 0) return <Text>{EVERYONE_TAKES_PART}</Text>;

  // Only people still listed count (someone added meanwhile drops out of the list).
  const selected = people.filter((person) => chosen.has(person.id)).map((person) => person.id);
  const all = selected.length === people.length;

  function toggle(id: number, on: boolean) {
    setChosen((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
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
      {failure && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w={48}>
                <Checkbox
                  aria-label="Choose everyone"
                  checked={all}
                  indeterminate={selected.length > 0 && !all}
                  onChange={(event) =>
                    setChosen(event.currentTarget.checked ? new Set(people.map((person) => person.id)) : new Set())
                  }
                />
              </Table.Th>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Username</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {people.map((person) => (
              <Table.Tr
                key={person.id}
                data-member-id={person.id}
                bg={chosen.has(person.id) ? 'var(--mantine-primary-color-light)' : undefined}
              >
                <Table.Td>
                  <Checkbox
                    aria-label={`Choose ${person.name}`}
                    checked={chosen.has(person.id)}
                    onChange={(event) => toggle(person.id, event.currentTarget.checked)}
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
      <Group gap="sm">
        <Button onClick={() => void add()} loading={assign.isPending} disabled={selected.length === 0}>
          Add to policy management
        </Button>
        <Text size="sm" c="dimmed" aria-live="polite">
          {selected.length === 0 ? 'Choose the people to add.' : `${peopleCount(selected.length)} chosen.`}
        </Text>
      </Group>
    </>
  );
}
