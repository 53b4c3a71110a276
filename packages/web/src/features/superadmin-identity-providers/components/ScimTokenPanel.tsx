import { Alert, Badge, Button, CopyButton, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { messageFor } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import type { IdentityProvider } from '../api/get-identity-providers';
import { useRevokeScimToken } from '../api/revoke-scim-token';
import { type ScimToken, useRotateScimToken } from '../api/rotate-scim-token';

/** A read-only value with a copy button (the base URL, the new token). */
function CopyField({
  label,
  copyLabel,
  description,
  value,
}: {
  label: string;
  copyLabel: string;
  description?: string;
  value: string;
}) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={label}
        description={description}
        value={value}
        readOnly
        style={{ flex: 1, minWidth: 0 }}
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button variant="default" onClick={copy} color={copied ? 'green.8' : undefined} aria-label={copyLabel}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * A provider's SCIM provisioning (docs/identity.md): whether it is on, the base URL its directory is given, and the
 * bearer token, made or replaced (shown once) and revoked.
 */
export function ScimTokenPanel({ provider }: { provider: IdentityProvider }) {
  const rotate = useRotateScimToken();
  const revoke = useRevokeScimToken();
  const [confirming, setConfirming] = useState<'rotate' | 'revoke' | null>(null);
  const [shown, setShown] = useState<ScimToken | null>(null);
  const { scim } = provider;

  async function makeToken() {
    setConfirming(null);
    try {
      setShown(await rotate.mutateAsync(provider.id));
    } catch (error) {
      toast.error(messageFor(error, 'The token could not be made. Please try again.'));
    }
  }

  async function turnOff() {
    setConfirming(null);
    try {
      await revoke.mutateAsync(provider.id);
      toast.success(`Provisioning for ${provider.name} is off.`);
    } catch (error) {
      toast.error(messageFor(error, 'Provisioning could not be turned off. Please try again.'));
    }
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={`scim-${provider.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h5" id={`scim-${provider.id}`}>
            Provisioning (SCIM 2.0)
          </Title>
          <Badge color={scim.enabled ? 'teal.9' : 'gray.8'} variant="light" size="sm" tt="none">
            {scim.enabled ? 'On' : 'Off'}
          </Badge>
        </Group>
        <Text size="sm">
          {scim.enabled
            ? `${provider.name}’s directory can create, change and deprovision people here with its token (made ${formatDateTime(scim.created_at)}). A person it deprovisions is signed out at once.`
            : `Give ${provider.name}’s directory a token to let it create, change and deprovision people here.`}
        </Text>
        <CopyField
          label="SCIM base URL"
          copyLabel="Copy the SCIM base URL"
          description="Enter it at the directory as the tenant URL (Entra ID) or base URL (Okta)."
          value={scim.base_url}
        />
        <Group gap="sm">
          {scim.enabled ? (
            <>
              <Button variant="default" loading={rotate.isPending} onClick={() => setConfirming('rotate')}>
                Rotate token
              </Button>
              <Button
                variant="default"
                color="red.8"
                loading={revoke.isPending}
                onClick={() => setConfirming('revoke')}
              >
                Turn off provisioning
              </Button>
            </>
          ) : (
            <Button loading={rotate.isPending} onClick={() => void makeToken()}>
              Create token
            </Button>
          )}
        </Group>
      </Stack>

      <ConfirmActionModal
        opened={confirming === 'rotate'}
        title="Rotate the SCIM token?"
        message={`The current token stops working at once: ${provider.name}’s directory cannot provision anyone until you enter the new token there.`}
        confirmLabel="Rotate token"
        onConfirm={() => void makeToken()}
        onCancel={() => setConfirming(null)}
      />
      <ConfirmActionModal
        opened={confirming === 'revoke'}
        title="Turn off provisioning?"
        message={`The token stops working at once: ${provider.name}’s directory can no longer create, change or deprovision people here. The people it provisioned keep their accounts as they are.`}
        confirmLabel="Turn off provisioning"
        danger
        onConfirm={() => void turnOff()}
        onCancel={() => setConfirming(null)}
      />
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title="SCIM token"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {shown ? (
          <Stack gap="md">
            <Alert color="yellow" variant="light" role="alert">
              Copy the token now and enter it at the directory as its secret token. It will not be shown again.
            </Alert>
            <CopyField label="Secret token" copyLabel="Copy the token" value={shown.token} />
            <CopyField label="SCIM base URL" copyLabel="Copy the SCIM base URL" value={shown.base_url} />
            <Group justify="flex-end">
              <Button onClick={() => setShown(null)}>Done</Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Paper>
  );
}
