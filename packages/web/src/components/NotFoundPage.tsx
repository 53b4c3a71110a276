import { Button, Code, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';
import { PageCard, PublicPage } from './PublicPage';

export function NotFoundPage() {
  usePageTitle('Page not found');
  const { pathname, search } = useLocation();

  return (
    <PublicPage size="xs">
      <PageCard>
        <Stack align="center" ta="center" gap="md">
          <Text fz={48} fw={800} lh={1} c="blue.8" aria-hidden="true">
            404
          </Text>
          <Title order={1}>Page not found</Title>
          <Text>The address you asked for does not exist or has been moved.</Text>
          <Text size="sm" c="dimmed">
            Requested address:{' '}
            <Code c="gray.9" style={{ wordBreak: 'break-all' }}>
              {pathname + search}
            </Code>
          </Text>
          <Button component={Link} to="/" mt="xs">
            Go to the home page
          </Button>
        </Stack>
      </PageCard>
    </PublicPage>
  );
}
