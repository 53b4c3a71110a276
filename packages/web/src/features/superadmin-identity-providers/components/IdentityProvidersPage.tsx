import { Badge, Button, EmptyState, Group, List, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IDP_KIND_LABELS } from '@portal/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { ListPanel, QueryBody, SubpageHeading } from '../../../components/page-parts';
import { useConfirmedAction } from '../../../lib/confirmed-action';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDeleteIdentityProvider } from '../api/delete-identity-provider';
import { type IdentityProvider, useIdentityProviders } from '../api/get-identity-providers';
import { IdentityProviderModal } from './IdentityProviderModal';
import { ScimTokenPanel } from './ScimTokenPanel';

const people = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'person' : 'people'}`;

/** What deleting a provider costs, said before it happens. */
export function deleteMessage(provider: IdentityProvider): string {
  const linked =
    provider.linked_users === 0
      ? 'No one has signed in with it yet.'
      : `${people(provider.linked_users)} linked to it will lose this way of signing in; their accounts stay.`;
  return `${provider.name} will no longer be offered on the sign-in page. ${linked} This cannot be undone.`;
}

/** /superadmin/identity-providers: the single sign-on providers (decision record 023), added, edited and deleted. */
export function IdentityProvidersPage() {
  usePageTitle('Identity providers');
  const providers = useIdentityProviders();
  const remove = useDeleteIdentityProvider();
  // undefined: the form is closed; null: adding; a provider: editing it.
  const [editing, setEditing] = useState<IdentityProvider | null | undefined>(undefined);
  const deletion = useConfirmedAction<IdentityProvider>({
    run: (provider) => remove.mutateAsync(provider.id),
    done: (provider) => `${provider.name} deleted.`,
    failed: (provider) => `${provider.name} could not be deleted. Please try again.`,
  });
  // The provider whose provisioning is open, read from the list so a new or revoked token shows at once.
  const [provisioningId, setProvisioningId] = useState<number | null>(null);
  const provisioning = providers.data?.find((provider) => provider.id === provisioningId) ?? null;

  const add = () => setEditing(null);
  const some = (providers.data?.length ?? 0) > 0;
  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <SubpageHeading
        back={{ to: '/superadmin', label: 'Administration' }}
        title="Identity providers"
        description="Single sign-on: people sign in with their organisation's account (Entra ID, Okta, Google Workspace…)."
        actions={some && <Button onClick={add}>Add identity provider</Button>}
      />
      <ListPanel busy={providers.isFetching}>
        <QueryBody
          query={providers}
          fallback="The identity providers could not be loaded. Please try again."
          retryLabel="Retry"
          loadingLabel="Loading identity providers"
          rows={3}
          rowHeight={40}
          inset
        >
          {(data) =>
            data.length === 0 ? (
              <NoProviders onAdd={add} />
            ) : (
              <ProvidersTable
                providers={data}
                onEdit={setEditing}
                onProvisioning={(provider) => setProvisioningId(provider.id)}
                onDelete={deletion.ask}
                deletingId={remove.isPending ? remove.variables : undefined}
              />
            )
          }
        </QueryBody>
      </ListPanel>
      <IdentityProviderModal
        opened={editing !== undefined}
        provider={editing ?? null}
        onClose={() => setEditing(undefined)}
      />
      <Modal
        opened={provisioning !== null}
        onClose={() => setProvisioningId(null)}
        title={provisioning ? `Provisioning of ${provisioning.name}` : 'Provisioning'}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {provisioning && <ScimTokenPanel provider={provisioning} />}
      </Modal>
      <ConfirmActionModal
        opened={deletion.asking !== null}
        title={deletion.asking ? `Delete ${deletion.asking.name}?` : 'Delete identity provider?'}
        message={deletion.asking ? deleteMessage(deletion.asking) : ''}
        confirmLabel="Delete identity provider"
        danger
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </Stack>
  );
}

function NoProviders({ onAdd }: { onAdd: () => void }) {
  return (
    <EmptyState py="xl" px="md" title="No identity providers yet">
      <Stack gap="xs" maw={640} mx="auto" ta="left">
        <Text size="sm">
          With single sign-on, staff sign in with the account their organisation already gives them, instead of a
          password kept here:
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>
            one account and one password (or passkey) to look after, and the organisation's own two-factor;
          </List.Item>
          <List.Item>people who leave lose access when their organisation turns their account off;</List.Item>
          <List.Item>
            new staff with an address in the provider's email domains get an account at their first sign-in.
          </List.Item>
        </List>
        <Text size="sm">
          You need, from the provider's administrator, an issuer URL, a client ID and a client secret (OpenID Connect),
          or the provider's metadata (SAML 2.0).
        </Text>
      </Stack>
      <EmptyState.Actions>
        <Button onClick={onAdd}>Add identity provider</Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}

interface ProvidersTableProps {
  providers: IdentityProvider[];
  onEdit: (provider: IdentityProvider) => void;
  /** Opens the provider's SCIM provisioning (its directory's base URL and token). */
  onProvisioning: (provider: IdentityProvider) => void;
  onDelete: (provider: IdentityProvider) => void;
  deletingId: number | undefined;
}

function ProvidersTable({ providers, onEdit, onProvisioning, onDelete, deletingId }: ProvidersTableProps) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped verticalSpacing="sm" horizontalSpacing="md" data-testid="identity-providers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Email domains</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Multi-factor trusted</Table.Th>
            <Table.Th ta="right">Linked users</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {providers.map((provider) => (
            <Table.Tr key={provider.id} data-provider-id={provider.id}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {provider.name}
                </Text>
                <Text size="xs" c="gray.7">
                  {provider.slug}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{IDP_KIND_LABELS[provider.kind]}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {provider.domains.length > 0 ? provider.domains.join(', ') : 'None'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge
                  color={provider.enabled ? 'teal.9' : 'gray.8'}
                  variant="light"
                  size="sm"
                  tt="none"
                  style={{ minWidth: 'max-content' }}
                >
                  {provider.enabled ? 'Enabled' : 'Disabled'}
                </Badge>
                {provider.local_passwords_off && (
                  <Text size="xs" c="gray.7" mt={4}>
                    Local passwords off
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{provider.trust_mfa ? 'Yes' : 'No'}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm">{provider.linked_users.toLocaleString('en-US')}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end">
                  <Button
                    component={Link}
                    to={`/superadmin/identity-providers/${provider.id}/mappings`}
                    variant="default"
                    size="compact-sm"
                    aria-label={`Group mappings of ${provider.name}`}
                  >
                    Group mappings
                  </Button>
                  <Button
                    variant="default"
                    size="compact-sm"
                    onClick={() => onProvisioning(provider)}
                    aria-label={`Provisioning of ${provider.name}`}
                  >
                    Provisioning
                  </Button>
                  <Button
                    variant="default"
                    size="compact-sm"
                    onClick={() => onEdit(provider)}
                    aria-label={`Edit ${provider.name}`}
                  >
                    Edit
                  </Button>
                  <Button
                    variant="subtle"
                    color="red.9"
                    size="compact-sm"
                    onClick={() => onDelete(provider)}
                    loading={deletingId === provider.id}
                    aria-label={`Delete ${provider.name}`}
                  >
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
