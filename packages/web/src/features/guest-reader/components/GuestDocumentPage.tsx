import { Anchor, Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { LoadingRows, QueryFailure } from '../../../components/page-parts';
import { PolicyContent } from '../../../components/policy/PolicyContent';
import { formatDay } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type GuestDocument, isUnavailable, useGuestDocument, useGuestProject } from '../api/guest-reader';
import { GuestFrame, GuestUnavailable } from './guest-frame';

export const NOT_CONTROLLED = 'Printed copies are not controlled.';

/**
 * /read/{projectId}/documents/{documentId}: the current published version of one policy, for a reader without an
 * account (a kiosk, a stable link or a QR code). One header line, then the text; Print for a paper copy.
 */
export function GuestDocumentPage() {
  const { projectId = '', documentId = '' } = useParams();
  const project = useGuestProject(projectId);
  const policy = useGuestDocument(projectId, documentId);
  usePageTitle(policy.data ? named(policy.data) : 'Policy');

  let body: ReactNode;
  if (project.isError && isUnavailable(project.error)) {
    body = <GuestUnavailable projectId={projectId} documentId={documentId} />;
  } else if (project.isError) {
    body = <QueryFailure query={project} fallback="The policy could not be loaded." />;
  } else if (project.isPending) {
    body = <LoadingRows label="Loading the policy" rows={6} />;
  } else if (policy.isError && isUnavailable(policy.error)) {
    // The reader is open here, but this policy is not published (or no longer is).
    body = (
      <Stack gap="xs" align="flex-start">
        <Text>This policy is not published.</Text>
        <Anchor component={Link} to={`/read/${projectId}`}>
          Search the published policies
        </Anchor>
      </Stack>
    );
  } else if (policy.isError) {
    body = <QueryFailure query={policy} fallback="The policy could not be loaded." />;
  } else if (policy.data) {
    body = <GuestPolicy policy={policy.data} />;
  } else {
    body = <LoadingRows label="Loading the policy" rows={6} />;
  }
  return (
    <GuestFrame projectId={projectId} projectName={project.data?.project.name} documentId={documentId}>
      {body}
    </GuestFrame>
  );
}

const named = (doc: { number: string | null; title: string }) =>
  doc.number ? `${doc.number} ${doc.title}` : doc.title;

function GuestPolicy({ policy }: { policy: GuestDocument }) {
  const facts = [
    `Version ${policy.version}`,
    policy.effective_on ? `Effective ${formatDay(policy.effective_on)}` : null,
    policy.approved_on ? `Approved ${formatDay(policy.approved_on)}` : null,
    policy.department,
  ].filter(Boolean);
  return (
    <Stack gap="sm" component="article" aria-labelledby="guest-policy-title">
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Title order={1} size="h3" id="guest-policy-title" style={{ overflowWrap: 'anywhere' }}>
            {named(policy)}
          </Title>
          <Text size="sm" c="dimmed" data-testid="policy-facts">
            {facts.join(' · ')}
          </Text>
        </Stack>
        <Button variant="default" size="xs" onClick={() => window.print()} className="guest-reader-no-print">
          Print
        </Button>
      </Group>
      <PolicyContent html={policy.content} label={`Text of ${named(policy)}`} emptyText="This policy has no text." />
      <Divider />
      <Text size="sm" c="dimmed" component="footer">
        {NOT_CONTROLLED}
      </Text>
    </Stack>
  );
}
