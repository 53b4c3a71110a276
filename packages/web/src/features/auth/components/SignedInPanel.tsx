import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { messageFor } from '../../../lib/api';
import { useSignOut } from '../../../lib/session';

/** SPEC section 2: the login page of a signed-in user offers Dashboard and Log out. */
export function SignedInPanel({ username }: { username: string }) {
  const signOut = useSignOut();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function logOut() {
    setPending(true);
    setError(null);
    try {
      await signOut();
    } catch (failure) {
      setError(messageFor(failure, 'Logging out failed. Please try again.'));
    } finally {
      setPending(false);
    }
  }

  return (
    <Stack gap="md">
      <Text>
        You are already signed in as <strong>{username}</strong>.
      </Text>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group grow gap="sm">
        <Button component={Link} to="/member/projects">
          Dashboard
        </Button>
        <Button variant="default" onClick={logOut} loading={pending}>
          Log out
        </Button>
      </Group>
    </Stack>
  );
}
