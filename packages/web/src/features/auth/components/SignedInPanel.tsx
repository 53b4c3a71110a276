import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorNotice } from '../../../components/page-parts';
import { useLogOut } from '../hooks/use-log-out';

/** SPEC section 2: the login page of a signed-in user offers Dashboard and Log out. */
export function SignedInPanel({ username }: { username: string }) {
  const { pending, error, logOut } = useLogOut();

  return (
    <Stack gap="md">
      <Text>
        You are already signed in as <strong>{username}</strong>.
      </Text>
      <ErrorNotice message={error} />
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
