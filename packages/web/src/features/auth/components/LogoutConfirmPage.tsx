import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageCard } from '../../../components/PublicPage';
import { messageFor } from '../../../lib/api';
import { useSignOut } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';

/** /logout-confirm: asks, then POST /logout and the login page. */
export function LogoutConfirmPage() {
  usePageTitle('Log out');
  const signOut = useSignOut();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function logOut() {
    setPending(true);
    setError(null);
    try {
      await signOut();
    } catch (failure) {
      setError(messageFor(failure, 'Logging out failed. Please try again.'));
      setPending(false);
    }
  }

  function cancel() {
    // Back where the user came from, or to the projects when this page was opened directly.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate('/member/projects', { replace: true });
  }

  return (
    <Container size="xs" px={0}>
      <PageCard>
        <Stack gap="md">
          <Title order={1} fz="h2">
            Log out
          </Title>
          <Text size="lg">Do you want to log out?</Text>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={cancel} disabled={pending}>
              Cancel
            </Button>
            <Button color="red.8" onClick={logOut} loading={pending}>
              Log out
            </Button>
          </Group>
        </Stack>
      </PageCard>
    </Container>
  );
}
