import { Badge, Button, Group, List, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { FailureAlert, PageHeading, SectionCard } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { indexedErrors } from '../../../lib/field-errors';
import { type AppPerson, usePeople } from '../../../lib/people';
import { MAIN_ROLE_DESCRIPTIONS, mainRoleOptions, roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { type MainRoleChange, useSetMainRoles } from '../api/main-roles';
import { type MainRolesScreen, type MainRolesSection, type PeopleScreens, screenRoute } from '../apps';
import { UsersNotLoaded } from './people-parts';
import { usePeopleProjectId } from './use-people-project';

export const NOBODY_HAS_A_ROLE = 'Nobody has a main role yet.';

/** The Select's value for "no role" (the options of role-labels use an empty string). */
const NONE = '';

export function saveLabel(count: number): string {
  return count === 1 ? 'Save 1 change' : `Save ${count.toLocaleString('en-US')} changes`;
}

/**
 * A main-roles screen of an app (PeopleScreens.mainRoles: policy management's assign-main-role and edit-main-role,
 * monitoring's assign-main-role): the app's users in sections without and with a main role, a role per person,
 * saved together in one bulk call (nothing is saved when one of them is refused).
 */
export function MainRolesPage({ d, screen }: { d: PeopleScreens; screen: MainRolesScreen }) {
  usePageTitle(screen.title);
  const projectId = usePeopleProjectId(d);
  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={screen.title}>
        {`A ${d.names.user}'s main role decides what they may do in ${d.names.app}. `}
        <Link to={screenRoute(d, projectId, screen.link.to)}>{screen.link.label}</Link>
      </PageHeading>
      <RoleGuide d={d} />
      <MainRolesScreenBody key={screen.path} d={d} screen={screen} projectId={projectId} />
    </Stack>
  );
}

function RoleGuide({ d }: { d: PeopleScreens }) {
  const descriptions: Record<string, string> = MAIN_ROLE_DESCRIPTIONS[d.app];
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="role-guide-heading">
      <Stack gap="xs">
        <Title order={2} fz="h5" id="role-guide-heading">
          What each role may do
        </Title>
        <List size="sm" spacing={4} data-testid="role-guide">
          {Object.entries(descriptions).map(([role, description]) => (
            <List.Item key={role}>
              <Text span fw={600} size="sm">
                {roleLabel(role)}:
              </Text>{' '}
              {description}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}

function MainRolesScreenBody({
  d,
  screen,
  projectId,
}: {
  d: PeopleScreens;
  screen: MainRolesScreen;
  projectId: string;
}) {
  const { names } = d;
  const list = usePeople(d.app, projectId, screen.list);
  const save = useSetMainRoles(d.app, projectId);
  /** The roles chosen per user id (NONE for "no role"); only rows whose value differs from the saved one count. */
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(new Map());
  const [rowErrors, setRowErrors] = useState<ReadonlyMap<number, string>>(new Map());
  const [failure, setFailure] = useState<string | null>(null);

  if (!list.isSuccess) return <UsersNotLoaded d={d} list={list} />;
  const people = list.data;
  // Only the list of every user of the app can say that nobody takes part.
  if (people.length === 0 && screen.list === 'assigned') {
    return (
      <Text>
        {`Nobody takes part in ${names.app} yet.`}{' '}
        <Link to={screenRoute(d, projectId, d.users[0])}>{`Add people to ${names.app}`}</Link>
      </Text>
    );
  }

  const saved = (person: AppPerson) => person.main_role ?? NONE;
  const currentRole = (person: AppPerson) => chosen.get(person.id) ?? saved(person);
  const changes: MainRoleChange[] = people
    .filter((person) => currentRole(person) !== saved(person))
    .map((person) => ({
      user_id: person.id,
      main_role: (currentRole(person) || null) as MainRoleChange['main_role'],
    }));

  function choose(person: AppPerson, value: string | null) {
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

  const table = (rows: AppPerson[], section: MainRolesSection) => {
    const rolesOnly = section.choices === 'roles';
    const options = mainRoleOptions(d.app).filter((option) => !rolesOnly || option.value !== NONE);
    return (
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" aria-labelledby={section.id}>
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
                      data={options}
                      value={rolesOnly && currentRole(person) === NONE ? null : currentRole(person)}
                      onChange={(value) => choose(person, value)}
                      placeholder={rolesOnly ? 'Choose a role' : undefined}
                      clearable={rolesOnly}
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
  };

  return (
    <>
      <FailureAlert message={failure} onClose={() => setFailure(null)} />
      {screen.sections.map((section) => {
        const rows = people.filter((person) => (person.main_role === null) === (section.has === 'without'));
        return (
          <SectionCard key={section.id} id={section.id} title={`${names.title} ${section.has} a main role`}>
            {rows.length > 0 ? (
              table(rows, section)
            ) : (
              <Text>{section.has === 'without' ? `Every ${names.user} has a main role.` : NOBODY_HAS_A_ROLE}</Text>
            )}
          </SectionCard>
        );
      })}
      {people.length > 0 && (
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
      )}
    </>
  );
}
