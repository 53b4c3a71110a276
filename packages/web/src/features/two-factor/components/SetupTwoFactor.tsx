import { Box, Button, Code, CopyButton, Group, Image, List, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import type { PasswordConfirmation } from '../../../lib/use-password-confirmation';
import { useConfirmTwoFactor } from '../api/confirm-two-factor';
import type { TwoFactorSetup } from '../api/enable-two-factor';

export const QR_ALT = 'QR code for your authenticator app';

/**
 * The QR code as an image from the server's SVG text. An SVG inside <img> cannot run scripts or load anything,
 * so it needs no sanitising; CSP img-src allows data: URLs.
 */
export function qrDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** 'JBSWY3DPEHPK3PXP' -> 'JBSW Y3DP EHPK 3PXP', easier to read and type (apps ignore the spaces). */
export function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

interface SetupTwoFactorProps {
  setup: TwoFactorSetup;
  /** The page's confirmation: on 423 it asks for the password and sends the code again with it. */
  confirmation: PasswordConfirmation['run'];
  onConfirmed: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** Scan (or type) the secret, then prove it works with a 6-digit code. */
export function SetupTwoFactor({ setup, confirmation, onConfirmed, onCancel }: SetupTwoFactorProps) {
  const confirm = useConfirmTwoFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(value)) {
      setError('Enter the 6-digit code.');
      return;
    }
    setError(null);
    try {
      // Over 10 minutes since the sign-in or the password (a slow setup): asked again, then the same code is sent.
      await confirmation(async (password) => onConfirmed(await confirm.mutateAsync({ code: value, password })));
    } catch (failure) {
      setError(messageFor(failure, 'The code could not be checked. Please try again.'));
      setCode('');
    }
  }

  return (
    <Stack gap="lg">
      <List type="ordered" spacing="xs">
        <List.Item>
          Install an authenticator app on your phone (for example FreeOTP, Google or Microsoft Authenticator).
        </List.Item>
        <List.Item>Scan the QR code with the app, or type the setup key by hand.</List.Item>
        <List.Item>Enter the 6-digit code the app shows.</List.Item>
      </List>
      <Group align="flex-start" gap="xl">
        <Box p="xs" bg="white" style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}>
          <Image src={qrDataUrl(setup.qr_svg)} alt={QR_ALT} w={200} h={200} fit="contain" />
        </Box>
        <Stack gap={6} style={{ flex: '1 1 14rem' }}>
          <Text fw={600}>Setup key</Text>
          <Code block fz="md" style={{ wordBreak: 'break-all' }} aria-label="Setup key">
            {groupSecret(setup.secret)}
          </Code>
          <CopyButton value={setup.secret}>
            {({ copied, copy }) => (
              <Button variant="default" size="xs" w="fit-content" onClick={copy}>
                {copied ? 'Copied' : 'Copy setup key'}
              </Button>
            )}
          </CopyButton>
          <Text size="sm" c="dimmed">
            Time-based code (TOTP), 6 digits, every 30 seconds.
          </Text>
        </Stack>
      </Group>
      <form onSubmit={submit} noValidate aria-label="Confirm two-factor authentication">
        <Stack gap="sm" maw="20rem">
          <ErrorNotice message={error} />
          <TextInput
            label="Authentication code"
            description="The 6-digit code from your app."
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={7}
            required
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Group gap="sm">
            <Button type="submit" loading={confirm.isPending}>
              Confirm
            </Button>
            <Button variant="default" onClick={onCancel} disabled={confirm.isPending}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
