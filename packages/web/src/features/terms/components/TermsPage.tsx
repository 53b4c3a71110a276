import { Button, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageCard, PublicPage } from '../../../components/PublicPage';
import { usePageTitle } from '../../../lib/use-page-title';
import { usePublicTerms } from '../api/get-public-terms';
import { TermsContent, TermsError, TermsLoading } from './TermsStates';

/** SPEC section 2 "Terms and conditions": public, read-only, states loading then error, content or empty. */
export function TermsPage() {
  usePageTitle('Terms and Conditions');
  const terms = usePublicTerms();

  return (
    <PublicPage size="md">
      <PageCard>
        <Stack gap="lg">
          <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
            Terms and Conditions (System Use Notification)
          </Title>
          {terms.data ? (
            <TermsContent terms={terms.data} />
          ) : terms.isError ? (
            <TermsError retrying={terms.isFetching} onRetry={() => void terms.refetch()} />
          ) : (
            <TermsLoading />
          )}
          <Group justify="flex-end">
            <Button component={Link} to="/member-login" w={{ base: '100%', xs: 'auto' }}>
              Back to Login
            </Button>
          </Group>
        </Stack>
      </PageCard>
    </PublicPage>
  );
}
