import { Badge, Button, EmptyState, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { Member, UserStatus } from '@portal/shared';
import { type ReactNode, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { PROJECT_ROLE_LABELS } from '../../../lib/role-labels';
import { useProjectMembers } from '../api/get-members';
import { useRemoveProjectMember } from '../api/remove-member';
import { AddMemberModal } from './AddMemberModal';
import { EditMemberModal } from './EditMemberModal';
import { mainRoleSummary } from './member-roles';
import { QueryLoadError, SectionCard } from './parts';
import { memberName } from './project-helpers';

const STATUS_BADGES: Record<UserStatus, { label: string; color: string }> = {
  active: { label: 'Active', color: 'teal.9' },
  invited: { label: 'Invited', color: 'blue.8' },
  disabled: { label: 'Disabled', color: 'gray.7' },
};

interface ProjectMembersCardProps {
  projectId: string;
  projectName: string;
}

/** The project's members: their roles, sign-in and two-factor state; add, edit and remove. */
export function ProjectMembersCard({ projectId, projectName }: ProjectMembersCardProps) {
  const members = useProjectMembers(projectId);
  const remove = useRemoveProjectMember(projectId);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const memberIds = useMemo(
    () => new Set((members.data?.members ?? []).map((member) => member.user_id)),
    [members.data],
  );

  async function confirmRemove() {
    const member = removing;
    setConfirmingRemove(false);
    if (!member) return;
    try {
      await remove.mutateAsync(member.user_id);
      toast.success(`${memberName(member)} removed from the project.`);
    } catch (error) {
      // 409: the last project admin cannot be removed; the server's message says so.
      toast.error(messageFor(error, 'The member could not be removed. Please try again.'));
    }
  }

  const list = members.data?.members ?? [];
  let body: ReactNode;
  if (members.isPending) {
    body = (
      <Stack gap="xs" role="status" aria-label="Loading members">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height={44} radius="sm" />
        ))}
      </Stack>
    );
  } else if (members.isError) {
    body = <QueryLoadError query={members} fallback="The members could not be loaded. Please try again." />;
  } else if (list.length === 0) {
    body = (
      <EmptyState
        title="No members yet"
        description="Add people who already have an account. Make at least one of them a project admin, so the facility can manage its own members."
        py="lg"
      >
        <EmptyState.Actions>
          <Button onClick={() => setAdding(true)}>Add the first member</Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  } else {
    body = (
      <ScrollTable
        minWidth={1040}
        verticalSpacing="sm"
        horizontalSpacing="sm"
        striped
        aria-label="Members"
        columns={['Name', 'Email', 'Project role', 'Main roles', 'Last sign-in', 'Two-factor', 'Status', 'Actions']}
      >
        {list.map((member) => {
          const name = memberName(member);
          const roles = mainRoleSummary(member);
          const status = STATUS_BADGES[member.status];
          return (
            <Table.Tr key={member.user_id} data-user-id={member.user_id}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {name}
                </Text>
                <Text size="xs" c="dimmed">
                  {member.username}
                </Text>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{member.email}</Table.Td>
              <Table.Td>{PROJECT_ROLE_LABELS[member.project_role]}</Table.Td>
              <Table.Td>
                {roles.length > 0 ? (
                  <Stack gap={2}>
                    {roles.map((role) => (
                      <Text key={role} size="sm">
                        {role}
                      </Text>
                    ))}
                  </Stack>
                ) : (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {member.last_login_at ? (
                  formatDateTime(member.last_login_at)
                ) : (
                  <Text size="sm" c="dimmed">
                    Never
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {member.two_factor_enabled ? (
                  <Badge variant="light" color="teal.9" size="sm">
                    On
                  </Badge>
                ) : (
                  <Badge variant="light" color="orange.9" size="sm">
                    Off
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={status.color} size="sm">
                  {status.label}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => setEditing(member)} aria-label={`Edit ${name}`}>
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red.9"
                    onClick={() => {
                      setRemoving(member);
                      setConfirmingRemove(true);
                    }}
                    loading={remove.isPending && remove.variables === member.user_id}
                    aria-label={`Remove ${name}`}
                  >
                    Remove
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </ScrollTable>
    );
  }

  return (
    <SectionCard
      title="Members"
      description={
        members.data
          ? `${list.length} ${list.length === 1 ? 'member' : 'members'}, with their roles in this project.`
          : 'The people in this project and their roles.'
      }
      actions={
        <Button onClick={() => setAdding(true)} disabled={members.isPending}>
          Add member
        </Button>
      }
    >
      {body}
      <AddMemberModal
        opened={adding}
        projectId={projectId}
        projectName={projectName}
        memberIds={memberIds}
        onClose={() => setAdding(false)}
      />
      <EditMemberModal projectId={projectId} member={editing} onClose={() => setEditing(null)} />
      <ConfirmActionModal
        opened={confirmingRemove}
        title={removing ? `Remove ${memberName(removing)}?` : 'Remove member?'}
        message={`They lose access to ${projectName} and its apps at once. Their account stays, and you can add them again later.`}
        confirmLabel="Remove member"
        danger
        onConfirm={() => void confirmRemove()}
        onCancel={() => setConfirmingRemove(false)}
      />
    </SectionCard>
  );
}
