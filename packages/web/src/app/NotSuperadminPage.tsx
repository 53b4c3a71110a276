import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';

/** /not-superadmin: where a non-superadmin lands when opening a superadmin page. */
export function NotSuperadminPage() {
  usePageTitle('Superadmins only');
  return (
    <Stack gap="md" align="flex-start" maw={640}>
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Superadmins only
      </Title>
      <Text>
        The page you opened is part of the portal's administration, which only superadmins can use. If you need
        something changed there, ask your project administrator or a superadmin.
      </Text>
      <Button component={Link} to="/member/projects">
        Back to Dashboard
      </Button>
    </Stack>
  );
}
