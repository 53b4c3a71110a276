import { Button, Group, MultiSelect, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { MONITORING_ROLE_DESCRIPTION_MAX, MONITORING_ROLE_NAME_MAX } from '@portal/shared';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { DialogModal } from '../../../components/form-parts/DialogModal';
import { RowAction } from '../../../components/form-parts/RowAction';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { FailureAlert, PageHeading, QueryBody, SectionCard } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { indexedErrors, serverFieldErrors } from '../../../lib/field-errors';
import { usePeople } from '../../../lib/people';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  type MonitoringRole,
  useDeleteMonitoringRole,
  useMonitoringRoles,
  useSaveMonitoringRole,
} from '../api/people-roles';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const TITLE = 'Monitoring roles';
export const NO_ROLES = 'No monitoring roles yet. Create one to give a group of people access to pages.';

export function grantsText(count: number): string {
  return count === 1 ? '1 page grant' : `${count.toLocaleString('en-US')} page grants`;
}

/**
 * /app/monitoring/{projectId}/page-role-manager: the project's monitoring roles (groups of monitoring users that
 * page permissions name): create, edit (name, description, members) and delete (its page grants go with it).
 */
export function PageRoleManagerPage() {
  usePageTitle(TITLE);
  const projectId = useMonitoringProjectId();
  const roles = useMonitoringRoles(projectId);
  const remove = useDeleteMonitoringRole(projectId);
  /** The role being edited; 'new' while creating one; null with the editor closed. */
  const [editing, setEditing] = useState<MonitoringRole | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MonitoringRole | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function deleteNow(role: MonitoringRole) {
    setDeleting(null);
    setFailure(null);
    try {
      const { grants_removed } = await remove.mutateAsync(role.id);
      toast.success(
        grants_removed === 0 ? `Deleted ${role.name}.` : `Deleted ${role.name} and ${grantsText(grants_removed)}.`,
      );
    } catch (error) {
      setFailure(messageFor(error, `${role.name} could not be deleted. Please try again.`));
    }
  }

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={TITLE}>
        Groups of monitoring users that page permissions name.{' '}
        <Link to={monitoringRoute(projectId, 'page-permissions')}>Give roles access to pages</Link>
      </PageHeading>
      <SectionCard
        id="roles-heading"
        title="Roles"
        actions={
          <Button w="fit-content" onClick={() => setEditing('new')}>
            New role
          </Button>
        }
      >
        <FailureAlert message={failure} onClose={() => setFailure(null)} />
        <QueryBody
          query={roles}
          fallback="The monitoring roles could not be loaded. Please try again."
          loadingLabel="Loading the monitoring roles"
        >
          {(data) =>
            data.length === 0 ? (
              <Text>{NO_ROLES}</Text>
            ) : (
              <ScrollTable
                minWidth={720}
                verticalSpacing="sm"
                highlightOnHover
                aria-labelledby="roles-heading"
                columns={['Name', 'Description', 'Members', 'Pages granted']}
                actions
              >
                {data.map((role) => (
                  <Table.Tr key={role.id} data-role-id={role.id}>
                    <Table.Td fw={600}>{role.name}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{role.description || '—'}</Table.Td>
                    <Table.Td>
                      {role.members.length === 0 ? (
                        <Text span size="sm" c="dimmed">
                          Nobody
                        </Text>
                      ) : (
                        role.members.map((member) => member.name).join(', ')
                      )}
                    </Table.Td>
                    <Table.Td>{role.grant_count.toLocaleString('en-US')}</Table.Td>
                    <Table.Td>
                      <Group justify="flex-end" wrap="nowrap" gap="xs">
                        <RowAction aria-label={`Edit ${role.name}`} onClick={() => setEditing(role)}>
                          Edit
                        </RowAction>
                        <RowAction
                          color="red.8"
                          aria-label={`Delete ${role.name}`}
                          loading={remove.isPending && remove.variables === role.id}
                          onClick={() => {
                            setFailure(null);
                            setDeleting(role);
                          }}
                        >
                          Delete
                        </RowAction>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ScrollTable>
            )
          }
        </QueryBody>
      </SectionCard>
      {editing !== null && (
        <RoleEditor projectId={projectId} role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmActionModal
        opened={deleting !== null}
        title="Delete role?"
        message={
          deleting
            ? deleting.grant_count === 0
              ? `Delete the role "${deleting.name}"? It is not named on any page.`
              : `Delete the role "${deleting.name}"? Its ${grantsText(deleting.grant_count)} will be removed, and its members lose the access those grants gave them.`
            : ''
        }
        confirmLabel="Delete"
        danger
        onConfirm={() => deleting && void deleteNow(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

const FIELDS = ['name', 'description', 'member_ids'] as const;
type Field = (typeof FIELDS)[number];

function RoleEditor({
  projectId,
  role,
  onClose,
}: {
  projectId: string;
  role: MonitoringRole | null;
  onClose: () => void;
}) {
  const save = useSaveMonitoringRole(projectId);
  const people = usePeople('monitoring', projectId, 'assigned');
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [members, setMembers] = useState<string[]>(role?.members.map((member) => String(member.id)) ?? []);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  // Members who left monitoring still show by name until removed.
  const options = [
    ...(people.data ?? []).map((person) => ({ value: String(person.id), label: person.name })),
    ...(role?.members ?? [])
      .filter((member) => !(people.data ?? []).some((person) => person.id === member.id))
      .map((member) => ({ value: String(member.id), label: member.name })),
  ];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const found: Partial<Record<Field, string>> = {};
    if (!name.trim()) found.name = 'Enter a name.';
    else if (name.trim().length > MONITORING_ROLE_NAME_MAX) {
      found.name = `A name is at most ${MONITORING_ROLE_NAME_MAX} characters.`;
    }
    if (description.trim().length > MONITORING_ROLE_DESCRIPTION_MAX) {
      found.description = `A description is at most ${MONITORING_ROLE_DESCRIPTION_MAX} characters.`;
    }
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) return;
    const memberIds = members.map(Number);
    try {
      const saved = await save.mutateAsync({
        ...(role ? { id: role.id } : {}),
        name: name.trim(),
        description: description.trim(),
        member_ids: memberIds,
      });
      toast.success(role ? `Saved ${saved.name}.` : `Created ${saved.name}.`);
      onClose();
    } catch (error) {
      const fields: Partial<Record<Field, string>> = serverFieldErrors(error, FIELDS);
      const byIndex = indexedErrors(error, /^member_ids\.(\d+)$/);
      if (byIndex.size > 0) {
        const label = (index: number) =>
          options.find((option) => option.value === String(memberIds[index]))?.label ?? 'Someone';
        fields.member_ids = [...byIndex].map(([index, message]) => `${label(index)}: ${message}`).join(' ');
      }
      setErrors(fields);
      if (Object.keys(fields).length === 0) {
        setFailure(messageFor(error, 'The role could not be saved. Please try again.'));
      }
    }
  }

  return (
    <DialogModal opened onClose={onClose} title={role ? `Edit ${role.name}` : 'New monitoring role'} size="lg">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <FailureAlert message={failure} onClose={() => setFailure(null)} />
          <TextInput
            label="Name"
            required
            data-autofocus
            maxLength={MONITORING_ROLE_NAME_MAX + 20}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
          />
          <Textarea
            label="Description"
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={errors.description}
            description="What the role is for (optional)."
          />
          <MultiSelect
            label="Members"
            placeholder={members.length === 0 ? 'Choose monitoring users' : undefined}
            description={
              people.isError ? messageFor(people.error, 'The monitoring users could not be loaded.') : undefined
            }
            data={options}
            value={members}
            onChange={setMembers}
            searchable
            clearable
            nothingFoundMessage="Nobody matches"
            error={errors.member_ids}
            comboboxProps={{ withinPortal: true }}
          />
          <DialogActions onCancel={onClose}>
            <Button type="submit" loading={save.isPending}>
              {role ? 'Save role' : 'Create role'}
            </Button>
          </DialogActions>
        </Stack>
      </form>
    </DialogModal>
  );
}
