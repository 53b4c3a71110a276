import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@portal/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { ErrorNotice } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';

interface PasswordConfirmModalProps {
  opened: boolean;
  onSubmit: (password: string) => Promise<void>;
  onCancel: () => void;
}

/** Asks for the password again before a sensitive change (answer 423 from the server). */
export function PasswordConfirmModal({ opened, onSubmit, onCancel }: PasswordConfirmModalProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

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

  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title="Confirm your password"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text>{MESSAGES.passwordConfirmationRequired}</Text>
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
        </Stack>
      </form>
    </Modal>
  );
}
