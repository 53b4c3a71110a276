import { Badge, List, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { ACCESS_DENIED, STD_ROLE_HELP, STD_ROLE_LABELS, STD_ROLES, type StdRole } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { LoadFailure, PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { PROJECT_ROLE_LABELS } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { useStdMe } from '../api/me';
import { type StdMember, useSetStdRole, useStdMembers } from '../api/members';
import { Loading, StdAccessDenied } from './std-parts';

const TITLE = 'Manage users';
export const NO_MEMBERS = 'This project has no members yet.';
export const PROJECT_ADMIN_ROLE = 'Standards admin (project admin)';

/** The Select's value for "no standards role". */
const NONE = '';
const OPTIONS = [
  { value: NONE, label: 'No standards role' },
  ...STD_ROLES.map((role) => ({ value: role, label: STD_ROLE_LABELS[role] })),
];

const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/**
 * /app/standards/{projectId}/manage-users (DOMAIN.md 3.3): the project's members and their standards roles, one
 * Select per person saved at once; taking a role away asks first. Project admins act as standards admins whatever
 * is stored, so their row is read-only.
 */
export function ManageUsersPage() {
  usePageTitle(`${TITLE} | Standards`);
  const { projectId = '' } = useParams();
  const me = useStdMe(projectId);
  const members = useStdMembers(projectId);

  let body: ReactNode;
  if (isForbidden(me.error) || isForbidden(members.error) || me.data?.abilities.manage_users === false) {
    return (
      <StdAccessDenied reason={ACCESS_DENIED.forbidden} role={me.data?.role ? STD_ROLE_LABELS[me.data.role] : null} />
    );
  }
  if (me.isError || members.isError) {
    const failed = me.isError ? me : members;
    body = (
      <LoadFailure
        error={failed.error}
        fallback="The members could not be loaded. Please try again."
        retrying={failed.isFetching}
        onRetry={() => void failed.refetch()}
      />
    );
  } else if (me.isPending || members.isPending) {
    body = <Loading label="Loading the members" />;
  } else {
    body = <MembersTable projectId={projectId} members={members.data.members} />;
  }

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={TITLE}>
        Give project members a standards role: it decides what they may do with assessments and their elements.
      </PageHeading>
      <RoleLegend />
      {body}
    </Stack>
  );
}

function RoleLegend() {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="std-role-legend">
      <Stack gap="xs">
        <Title order={2} fz="h5" id="std-role-legend">
          What each role may do
        </Title>
        <List size="sm" spacing={4} data-testid="role-legend">
          {STD_ROLES.map((role) => (
            <List.Item key={role}>
              <Text span fw={600} size="sm">
                {STD_ROLE_LABELS[role]}:
              </Text>{' '}
              {STD_ROLE_HELP[role]}
            </List.Item>
          ))}
        </List>
        <Text size="sm" c="dimmed">
          Project admins always act as standards admins.
        </Text>
      </Stack>
    </Paper>
  );
}

function MembersTable({ projectId, members }: { projectId: string; members: StdMember[] }) {
  const save = useSetStdRole(projectId);
  const [search, setSearch] = useState('');
  /** The role being saved per user (shown in the Select meanwhile). */
  const [saving, setSaving] = useState<ReadonlyMap<number, string>>(new Map());
  const [removing, setRemoving] = useState<StdMember | null>(null);

  const words = search.trim().toLowerCase();
  const shown = words
    ? members.filter(
        (member) => member.name.toLowerCase().includes(words) || member.email.toLowerCase().includes(words),
      )
    : members;

  async function apply(member: StdMember, role: StdRole | null) {
    setSaving((previous) => new Map(previous).set(member.user_id, role ?? NONE));
    try {
      await save.mutateAsync({ userId: member.user_id, role });
      toast.success(
        role
          ? `${member.name}'s standards role is now ${STD_ROLE_LABELS[role]}.`
          : `${member.name} no longer has a standards role.`,
      );
    } catch (error) {
      toast.error(messageFor(error, 'The role could not be saved. Please try again.'));
    } finally {
      setSaving((previous) => {
        const next = new Map(previous);
        next.delete(member.user_id);
        return next;
      });
    }
  }

  function choose(member: StdMember, value: string | null) {
    const role = (value || null) as StdRole | null;
    if (role === member.role) return;
    if (role === null) setRemoving(member);
    else void apply(member, role);
  }

  return (
    <Stack gap="md">
      <TextInput
        label="Search members"
        placeholder="Name or email"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        type="search"
        maw={420}
      />
      {members.length === 0 ? (
        <Text>{NO_MEMBERS}</Text>
      ) : shown.length === 0 ? (
        <Text>Nobody matches “{search.trim()}”.</Text>
      ) : (
        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="sm" aria-label="Standards roles">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Name</Table.Th>
                  <Table.Th scope="col">Email</Table.Th>
                  <Table.Th scope="col">Project role</Table.Th>
                  <Table.Th scope="col" w={280}>
                    Standards role
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((member) => (
                  <Table.Tr key={member.user_id} data-user-id={member.user_id}>
                    <Table.Td fw={600}>{member.name}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{member.email}</Table.Td>
                    <Table.Td>{PROJECT_ROLE_LABELS[member.project_role]}</Table.Td>
                    <Table.Td>
                      {member.project_role === 'admin' ? (
                        <Badge variant="light" color="blue" c="blue.9" radius="sm" tt="none">
                          {PROJECT_ADMIN_ROLE}
                        </Badge>
                      ) : (
                        <Select
                          aria-label={`Standards role of ${member.name}`}
                          data={OPTIONS}
                          value={saving.get(member.user_id) ?? member.role ?? NONE}
                          onChange={(value) => choose(member, value)}
                          allowDeselect={false}
                          disabled={saving.has(member.user_id)}
                          comboboxProps={{ withinPortal: true }}
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      <ConfirmActionModal
        opened={removing !== null}
        title="Remove standards role"
        message={
          removing
            ? `Take the ${STD_ROLE_LABELS[removing.role ?? 'viewer']} role away from ${removing.name}? They stay a member of the project, without a standards role.`
            : ''
        }
        confirmLabel="Remove role"
        danger
        onConfirm={() => {
          const member = removing;
          setRemoving(null);
          if (member) void apply(member, null);
        }}
        onCancel={() => setRemoving(null)}
      />
    </Stack>
  );
}
