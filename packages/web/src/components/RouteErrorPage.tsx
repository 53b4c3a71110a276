import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';
import { PageCard, PublicPage } from './PublicPage';

/** Shown instead of React Router's developer screen when rendering a route throws. */
export function RouteErrorPage() {
  usePageTitle('Something went wrong');
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <PublicPage size="xs">
      <PageCard>
        <Stack align="center" ta="center" gap="md">
          <Title order={1}>Something went wrong</Title>
          <Text>This page could not be shown because of an unexpected error. Reload the page to try again.</Text>
          <Group justify="center">
            <Button onClick={() => window.location.reload()}>Reload the page</Button>
            <Anchor href="/">Go to the home page</Anchor>
          </Group>
        </Stack>
      </PageCard>
    </PublicPage>
  );
}
