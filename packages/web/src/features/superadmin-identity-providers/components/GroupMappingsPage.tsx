import { Button, EmptyState, Group, List, Stack, Table, Text } from '@mantine/core';
import { PERMISSION_APPS } from '@portal/shared';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ScrollTable } from '../../../components/form-parts/ScrollTable';
import { ListPanel, QueryBody, SubpageHeading } from '../../../components/page-parts';
import { useConfirmedAction } from '../../../lib/confirmed-action';
import { APP_ROLE_LABELS, PROJECT_ROLE_LABELS, roleLabel } from '../../../lib/role-labels';
import { usePageTitle } from '../../../lib/use-page-title';
import { useIdentityProviders } from '../api/get-identity-providers';
import { type GroupMapping, useDeleteGroupMapping, useGroupMappings } from '../api/group-mappings';
import { GroupMappingModal } from './GroupMappingModal';

/** "Policy management: Reader" per app that has a role, or "None". */
export function mainRolesText(mapping: GroupMapping): string {
  const named = PERMISSION_APPS.filter((app) => mapping.main_roles[app]).map(
    (app) => `${APP_ROLE_LABELS[app]}: ${roleLabel(mapping.main_roles[app])}`,
  );
  return named.length ? named.join('; ') : 'None';
}

/**
 * /superadmin/identity-providers/{id}/mappings: which directory groups of a provider make people members of which
 * project, with which roles (docs/identity.md "Group mappings"). People follow at their next sign-in.
 */
export function GroupMappingsPage() {
  const providerId = Number(useParams().id);
  const providers = useIdentityProviders();
  const provider = providers.data?.find((p) => p.id === providerId);
  usePageTitle(provider ? `Group mappings of ${provider.name}` : 'Group mappings');
  const mappings = useGroupMappings(providerId);
  const remove = useDeleteGroupMapping(providerId);
  // undefined: the form is closed; null: adding; a mapping: editing it.
  const [editing, setEditing] = useState<GroupMapping | null | undefined>(undefined);
  const deletion = useConfirmedAction<GroupMapping>({
    run: (mapping) => remove.mutateAsync(mapping.id),
    done: (mapping) => `The mapping of ${mapping.group} to ${mapping.project_name} deleted.`,
    failed: () => 'The mapping could not be deleted. Please try again.',
  });

  const add = () => setEditing(null);
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <SubpageHeading
        back={{ to: '/superadmin/identity-providers', label: 'Identity providers' }}
        title="Group mappings"
        description={
          <>
            {provider ? `${provider.name}: ` : ''}the members of a directory group become members of a project, with the
            roles you choose. People follow at their next sign-in.
          </>
        }
        actions={(mappings.data?.length ?? 0) > 0 && <Button onClick={add}>Add group mapping</Button>}
      />
      <ListPanel busy={mappings.isFetching}>
        <QueryBody
          query={mappings}
          fallback="The group mappings could not be loaded. Please try again."
          retryLabel="Retry"
          loadingLabel="Loading group mappings"
          rows={3}
          rowHeight={40}
          inset
        >
          {(data) =>
            data.length === 0 ? (
              <NoMappings onAdd={add} />
            ) : (
              <MappingsTable
                mappings={data}
                onEdit={setEditing}
                onDelete={deletion.ask}
                deletingId={remove.isPending ? remove.variables : undefined}
              />
            )
          }
        </QueryBody>
      </ListPanel>
      <GroupMappingModal
        providerId={providerId}
        opened={editing !== undefined}
        mapping={editing ?? null}
        onClose={() => setEditing(undefined)}
      />
      <ConfirmActionModal
        opened={deletion.asking !== null}
        title={deletion.asking ? `Delete the mapping of ${deletion.asking.group}?` : 'Delete group mapping?'}
        message={
          deletion.asking
            ? `Members of ${deletion.asking.group} will lose the membership and roles this mapping gave them in ${deletion.asking.project_name} at their next sign-in, unless another mapping gives them. What an administrator granted by hand stays.`
            : ''
        }
        confirmLabel="Delete mapping"
        danger
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </Stack>
  );
}

function NoMappings({ onAdd }: { onAdd: () => void }) {
  return (
    <EmptyState py="xl" px="md" title="No group mappings yet">
      <Stack gap="xs" maw={640} mx="auto" ta="left">
        <Text size="sm">
          A mapping turns a group of your directory into a project membership. For example, a group “ICU Nursing” →
          project Lakeside Hospital, member, policy management reader of department ICU:
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>everyone the provider says is in ICU Nursing becomes a member at their next sign-in;</List.Item>
          <List.Item>someone who leaves the group loses what the mapping gave them, nothing more;</List.Item>
          <List.Item>memberships and roles you grant by hand are never changed by a mapping.</List.Item>
        </List>
        <Text size="sm">The provider must send the groups claim in its ID token (see the provider's claims).</Text>
      </Stack>
      <EmptyState.Actions>
        <Button onClick={onAdd}>Add group mapping</Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}

interface MappingsTableProps {
  mappings: GroupMapping[];
  onEdit: (mapping: GroupMapping) => void;
  onDelete: (mapping: GroupMapping) => void;
  deletingId: number | undefined;
}

function MappingsTable({ mappings, onEdit, onDelete, deletingId }: MappingsTableProps) {
  return (
    <ScrollTable
      minWidth={760}
      striped
      verticalSpacing="sm"
      horizontalSpacing="md"
      data-testid="group-mappings"
      columns={['Group', 'Project', 'Project role', 'Main roles', 'Reader of departments']}
      actions
    >
      {mappings.map((mapping) => (
        <Table.Tr key={mapping.id} data-mapping-id={mapping.id}>
          <Table.Td>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {mapping.group}
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{mapping.project_name}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{PROJECT_ROLE_LABELS[mapping.project_role]}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{mainRolesText(mapping)}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">
              {mapping.reader_departments.length ? mapping.reader_departments.map((d) => d.name).join(', ') : 'None'}
            </Text>
          </Table.Td>
          <Table.Td>
            <Group gap="xs" justify="flex-end" wrap="nowrap">
              <Button
                variant="default"
                size="compact-sm"
                onClick={() => onEdit(mapping)}
                aria-label={`Edit the mapping of ${mapping.group} to ${mapping.project_name}`}
              >
                Edit
              </Button>
              <Button
                variant="subtle"
                color="red.8"
                size="compact-sm"
                onClick={() => onDelete(mapping)}
                loading={deletingId === mapping.id}
                aria-label={`Delete the mapping of ${mapping.group} to ${mapping.project_name}`}
              >
                Delete
              </Button>
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </ScrollTable>
  );
}
