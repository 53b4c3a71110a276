import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { BrandMark } from '../../../components/BrandMark';
import { PageCard, PublicPage } from '../../../components/PublicPage';
import { PRODUCT_NAME } from '../../../lib/product';
import { usePageTitle } from '../../../lib/use-page-title';

/** Public welcome page. The sign-in issue adds the SPEC's role-based redirect from `/`. */
export function HomePage() {
  usePageTitle();

  return (
    <PublicPage withHeader={false}>
      <PageCard>
        <Stack align="center" ta="center" gap="lg">
          <BrandMark size={56} />
          <Title order={1}>{PRODUCT_NAME}</Title>
          <Text size="lg" c="dimmed" maw="34rem">
            A self-hosted portal that brings the policies, quality monitoring, chart review and accreditation standards
            of many healthcare facilities together in one installation.
          </Text>
          <Group justify="center" gap="sm" w="100%">
            <Button component={Link} to="/member-login" size="md" w={{ base: '100%', xs: 'auto' }}>
              Member Login
            </Button>
            <Button
              component={Link}
              to="/terms-and-conditions"
              size="md"
              variant="default"
              w={{ base: '100%', xs: 'auto' }}
            >
              Terms and Conditions
            </Button>
          </Group>
          {/* A plain link: the server serves the API reference, not this app. */}
          <Anchor href="/api/docs" size="sm">
            API documentation
          </Anchor>
        </Stack>
      </PageCard>
    </PublicPage>
  );
}
