import { Button, Divider, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { messageFor } from '../lib/api';
import type { ConfirmationRequest } from '../lib/use-password-confirmation';
import { ErrorNotice } from './page-parts';

interface PasswordConfirmModalProps {
  /** The 423's request, or null when nothing is asked. */
  request: ConfirmationRequest | null;
  onSubmit: (password: string) => Promise<void>;
  onCancel: () => void;
}

/** The provider's sign-in, asked to come back to `target` (this screen). */
const signInAgainUrl = (loginUrl: string, target: string) =>
  `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(target)}`;

/**
 * Asks the user to confirm it is them before a sensitive change (answer 423): the password, or, for an account that
 * signs in through single sign-on, signing in again with its provider, which brings them back to this screen.
 */
export function PasswordConfirmModal({ request, onSubmit, onCancel }: PasswordConfirmModalProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const location = useLocation();
  const opened = request !== null;
  // The last request stays on screen while the modal closes, so its content does not change under the transition.
  const shown = useRef(request);
  if (request) shown.current = request;
  const how = shown.current?.how;
  const message = shown.current?.message;

  useEffect(() => {
    if (!opened) {
      setPassword('');
      setError(null);
    }
  }, [opened]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) {
      setError('Enter your password.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSubmit(password);
    } catch (failure) {
      setError(messageFor(failure, 'Your password could not be confirmed. Please try again.'));
      setPassword('');
    } finally {
      setPending(false);
    }
  }

  const sso = how?.sso ? (
    <Button
      component="a"
      href={signInAgainUrl(how.sso.login_url, `${location.pathname}${location.search}`)}
      variant={how.password ? 'default' : 'filled'}
      fullWidth
    >
      Sign in again with {how.sso.name}
    </Button>
  ) : null;

  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={how && !how.password ? 'Sign in again to continue' : 'Confirm your password'}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {how?.password ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text>{message}</Text>
            <ErrorNotice message={error} />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onCancel} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" loading={pending}>
                Confirm
              </Button>
            </Group>
            {sso && (
              <>
                <Divider label="or" labelPosition="center" />
                {sso}
                <Text size="sm" c="dimmed">
                  You will come back to this page; then try again.
                </Text>
              </>
            )}
          </Stack>
        </form>
      ) : (
        <Stack gap="md">
          <Text>{message}</Text>
          {sso && (
            <Text size="sm" c="dimmed">
              You will come back to this page; then try again.
            </Text>
          )}
          {sso}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
