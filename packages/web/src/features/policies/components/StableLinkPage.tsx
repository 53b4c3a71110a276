import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { stableLinkPath } from '@portal/shared';
import type { ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { loginRedirectPath } from '../../../app/RequireAuth';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { PageCard, PublicPage } from '../../../components/PublicPage';
import { RetryableFailure } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDayLong } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type PolicyLink, usePolicyLink } from '../api/policy-links';

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PublicPage size="xs">
      <PageCard>
        <Stack gap="md">
          <Title order={1} fz="h3">
            {title}
          </Title>
          {children}
          <Button component={Link} to="/" variant="default" w="fit-content">
            Go to the home page
          </Button>
        </Stack>
      </PageCard>
    </PublicPage>
  );
}

function RetiredNotice({ projectId, link }: { projectId: string; link: Extract<PolicyLink, { outcome: 'retired' }> }) {
  const replacement = link.replaced_by;
  return (
    <Notice title="This policy was retired">
      <Text>
        Policy {link.number} "{link.title}" was retired on {formatDayLong(link.retired_on)}.
      </Text>
      {replacement && (
        <Text>
          It was replaced by{' '}
          {replacement.number ? (
            <Anchor component={Link} to={stableLinkPath(projectId, replacement.number)}>
              {replacement.number} "{replacement.title}"
            </Anchor>
          ) : (
            `"${replacement.title}"`
          )}
          .
        </Text>
      )}
    </Notice>
  );
}

/**
 * /p/{projectId}/{number}: a policy's stable link, from the EHR, an email or a QR code on the wall. The server
 * says where it leads whoever follows it: the member's policy page, the guest reader, the sign-in page (coming back
 * here afterwards), or that the policy was retired.
 */
export function StableLinkPage() {
  const { projectId = '', number = '' } = useParams();
  const shown = number.trim().toUpperCase();
  usePageTitle(`Policy ${shown}`);
  const link = usePolicyLink(projectId, number);

  if (link.isPending) return <LoadingScreen label={`Opening policy ${shown}…`} />;
  if (link.isError) {
    if (link.error instanceof ApiError && (link.error.status === 404 || link.error.status === 400)) {
      return (
        <Notice title="Policy not found">
          <Text>There is no current policy numbered {shown} in this project.</Text>
          <Text c="dimmed" size="sm">
            Check the number, or search the policies after signing in.
          </Text>
        </Notice>
      );
    }
    return (
      <PublicPage size="xs">
        <PageCard>
          <RetryableFailure
            message={messageFor(link.error, 'The policy could not be opened. Please try again.')}
            retrying={link.isFetching}
            onRetry={() => void link.refetch()}
          />
        </PageCard>
      </PublicPage>
    );
  }
  const answer = link.data;
  switch (answer.outcome) {
    case 'member':
      return <Navigate to={`/app/policy_management/${projectId}/documents/${answer.document_id}`} replace />;
    case 'guest':
      return <Navigate to={`/read/${projectId}/documents/${answer.document_id}`} replace />;
    case 'sign_in':
      return <Navigate to={loginRedirectPath(stableLinkPath(projectId, number))} replace />;
    case 'retired':
      return <RetiredNotice projectId={projectId} link={answer} />;
  }
}
