import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { PageCard } from '../../../components/PublicPage';
import { ErrorNotice } from '../../../components/page-parts';
import { usePageTitle } from '../../../lib/use-page-title';
import { useLogOut } from '../hooks/use-log-out';

/** /logout-confirm: asks, then POST /logout and the login page. */
export function LogoutConfirmPage() {
  usePageTitle('Log out');
  const { pending, error, logOut } = useLogOut();
  const navigate = useNavigate();

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
          <ErrorNotice message={error} />
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
