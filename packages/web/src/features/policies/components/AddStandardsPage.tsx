import { Alert, Anchor, Group, Paper, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { documentName } from '@portal/shared';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { StatusBadge } from '../../../components/policy/StatusBadge';
import { AddStandardsPanel } from '../../../components/standards-links/AddStandardsPanel';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDocument } from '../api/get-document';
import { useDocuments } from '../api/get-documents';
import { NOT_FOUND } from './DocumentPage';
import { DOCUMENT_ID, documentPage } from './document-format';
import { usePolicyProjectId } from './use-policy-project';

const TITLE = 'Add standards';

/**
 * /app/policy_management/{projectId}/add-standards[?document={id}] (DOMAIN.md 0.1, 3.3): choose a policy, then link
 * it to the standard elements it meets. The section is for policy admins (the permission engine guards it).
 */
export function AddStandardsPage() {
  usePageTitle(TITLE);
  const projectId = usePolicyProjectId();
  const [params, setParams] = useSearchParams();
  const raw = params.get('document');
  const documentId = raw && DOCUMENT_ID.test(raw) ? raw : null;
  const documents = useDocuments(projectId);

  const options = useMemo(
    () => (documents.data ?? []).map((row) => ({ value: String(row.id), label: documentName(row) })),
    [documents.data],
  );
  const listed = documentId !== null && options.some((option) => option.value === documentId);

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={TITLE}>
        Link a policy to the standard elements it meets: the Standards app then shows its approval, signatures and
        reading as live evidence on each element.
      </PageHeading>
      {documents.isError ? (
        <LoadFailure
          error={documents.error}
          fallback="The policies could not be loaded. Please try again."
          retrying={documents.isFetching}
          onRetry={() => void documents.refetch()}
        />
      ) : documents.isPending ? (
        <LoadingRows label="Loading the policies" rows={1} />
      ) : options.length === 0 ? (
        <Text>There are no policies in this project yet.</Text>
      ) : (
        <Select
          label="Policy"
          description="Search by number or title."
          placeholder="Choose a policy"
          data={options}
          value={listed ? documentId : null}
          onChange={(value) => value && setParams({ document: value })}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No policy by that number or title"
          maw={640}
        />
      )}
      {documentId !== null && <PolicyStandards key={documentId} projectId={projectId} documentId={documentId} />}
    </Stack>
  );
}

function PolicyStandards({ projectId, documentId }: { projectId: string; documentId: string }) {
  const document = useDocument(projectId, documentId);

  if (document.error instanceof ApiError && document.error.status === 404) {
    return (
      <Alert color="yellow" variant="light" role="alert">
        {NOT_FOUND}
      </Alert>
    );
  }
  if (document.isError) {
    return (
      <LoadFailure
        error={document.error}
        fallback="The policy could not be loaded. Please try again."
        retrying={document.isFetching}
        onRetry={() => void document.refetch()}
      />
    );
  }
  if (document.isPending) {
    return (
      <Stack gap="md" role="status" aria-label="Loading the policy">
        <Skeleton height={80} radius="md" />
        <Skeleton height={200} radius="md" />
      </Stack>
    );
  }

  const policy = document.data;
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="chosen-policy">
        <Stack gap={4}>
          <Group gap="sm" wrap="wrap">
            <Text ff="monospace" fw={700} c="dimmed">
              {policy.number ?? 'No number yet'}
            </Text>
            <StatusBadge status={policy.status} />
          </Group>
          <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
            {policy.title}
          </Title>
          <Anchor component={Link} to={documentPage(projectId, policy.id)} size="sm" w="fit-content">
            Open the policy
          </Anchor>
        </Stack>
      </Paper>
      <AddStandardsPanel
        projectId={projectId}
        targetType="policy"
        targetId={policy.id}
        targetLabel={documentName(policy)}
        canEdit
      />
    </Stack>
  );
}
