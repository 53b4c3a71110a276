import { Anchor, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { LoadFailure, LoadingRows } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateTime, formatDay } from '../../../lib/dates';
import { usePageTitle } from '../../../lib/use-page-title';
import { type ArchivedDocument, type EarlierVersion, type PolicyArchive, useArchive } from '../api/get-archive';
import { useRestoreDocument } from '../api/restore-document';
import { useRestoreVersion } from '../api/restore-version';
import { byNumber } from './browse-ui';
import { documentName } from './document-format';
import { policyRoute, usePolicyProjectId } from './use-policy-project';

/**
 * Route `archive-navigator`: the archived documents (each can be restored) and the earlier, superseded versions of
 * every document (each can be restored as the document's draft).
 */
export function ArchiveNavigatorPage() {
  usePageTitle('Archive');
  const projectId = usePolicyProjectId();
  const archive = useArchive(projectId);

  let body: ReactNode;
  if (archive.isPending) {
    body = <LoadingRows label="Loading the archive" />;
  } else if (archive.isError) {
    body = (
      <LoadFailure
        error={archive.error}
        fallback="The archive could not be loaded. Please try again."
        retrying={archive.isFetching}
        onRetry={() => void archive.refetch()}
      />
    );
  } else {
    body = (
      <>
        <ArchivedDocuments projectId={projectId} documents={archive.data.documents} />
        <EarlierVersions projectId={projectId} versions={archive.data.versions} />
      </>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1200}>
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        Archive
      </Title>
      {body}
    </Stack>
  );
}

/** One section of the archive under its h2: `empty` while it has no rows, else the table of the rows; then `dialog`. */
function ArchiveSection({
  id,
  title,
  empty,
  testId,
  minWidth,
  heads,
  dialog,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  testId: string;
  minWidth: number;
  heads: readonly string[];
  dialog: ReactNode;
  children: ReactNode[];
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {children.length === 0 ? (
          <Text c="dimmed">{empty}</Text>
        ) : (
          <ArchiveTable labelledBy={id} testId={testId} minWidth={minWidth} heads={heads}>
            {children}
          </ArchiveTable>
        )}
        {dialog}
      </Stack>
    </Paper>
  );
}

/** The table of one section: its column heads, an unnamed Actions column last, and the rows (`children`). */
function ArchiveTable({
  labelledBy,
  testId,
  minWidth,
  heads,
  children,
}: {
  labelledBy: string;
  testId: string;
  minWidth: number;
  heads: readonly string[];
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table verticalSpacing="xs" aria-labelledby={labelledBy} data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {heads.map((head) => (
              <Table.Th key={head} scope="col">
                {head}
              </Table.Th>
            ))}
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ArchivedDocuments({ projectId, documents }: { projectId: string; documents: PolicyArchive['documents'] }) {
  const restore = useRestoreDocument(projectId);
  const [confirming, setConfirming] = useState<ArchivedDocument | null>(null);
  const sorted = [...documents].sort(byNumber);

  const confirm = () => {
    const doc = confirming;
    if (!doc) return;
    setConfirming(null);
    restore.mutate(doc.id, {
      onSuccess: (result) => toast.success(result.message),
      onError: (error) => toast.error(messageFor(error, 'The policy could not be restored. Please try again.')),
    });
  };

  return (
    <ArchiveSection
      id="archived-heading"
      title="Archived documents"
      empty="No archived policies."
      testId="archived-table"
      minWidth={680}
      heads={['Number', 'Title', 'Archived', 'By']}
      dialog={
        <ConfirmActionModal
          opened={confirming !== null}
          title="Restore policy"
          message={
            confirming
              ? `Restore “${documentName(confirming)}” from the archive? It returns to the status it had before it was archived.`
              : ''
          }
          confirmLabel="Restore"
          onConfirm={confirm}
          onCancel={() => setConfirming(null)}
        />
      }
    >
      {sorted.map((doc) => (
        <Table.Tr key={doc.id} data-document-id={doc.id}>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{doc.number ?? '—'}</Table.Td>
          <Table.Td>
            <Anchor
              component={Link}
              to={policyRoute(projectId, `documents/${doc.id}`)}
              style={{ overflowWrap: 'anywhere' }}
            >
              {doc.title}
            </Anchor>
          </Table.Td>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(doc.archived_at)}</Table.Td>
          <Table.Td>{doc.archived_by?.name ?? '—'}</Table.Td>
          <Table.Td>
            <Group justify="flex-end">
              <Button
                size="xs"
                variant="default"
                onClick={() => setConfirming(doc)}
                loading={restore.isPending && restore.variables === doc.id}
                aria-label={`Restore ${documentName(doc)}`}
              >
                Restore
              </Button>
            </Group>
          </Table.Td>
        </Table.Tr>
      ))}
    </ArchiveSection>
  );
}

function EarlierVersions({ projectId, versions }: { projectId: string; versions: PolicyArchive['versions'] }) {
  const restore = useRestoreVersion(projectId);
  const [confirming, setConfirming] = useState<EarlierVersion | null>(null);
  const sorted = [...versions].sort((a, b) => byNumber(a, b) || a.document_id - b.document_id || b.version - a.version);

  const confirm = () => {
    const version = confirming;
    if (!version) return;
    setConfirming(null);
    restore.mutate(
      { documentId: version.document_id, versionId: version.version_id },
      {
        onSuccess: () => toast.success(`Version ${version.version} of “${documentName(version)}” is now the draft.`),
        onError: (error) => toast.error(messageFor(error, 'The version could not be restored. Please try again.')),
      },
    );
  };

  return (
    <ArchiveSection
      id="versions-heading"
      title="Earlier versions"
      empty="No earlier versions."
      testId="versions-table"
      minWidth={760}
      heads={['Document', 'Version', 'Effective', 'Superseded']}
      dialog={
        <ConfirmActionModal
          opened={confirming !== null}
          title="Restore as draft"
          message={
            confirming
              ? `Make the text of version ${confirming.version} of “${documentName(confirming)}” the document's draft? The published version stays in force until the draft is published.`
              : ''
          }
          confirmLabel="Restore as draft"
          onConfirm={confirm}
          onCancel={() => setConfirming(null)}
        />
      }
    >
      {sorted.map((version) => {
        const name = `version ${version.version} of ${documentName(version)}`;
        const busy =
          restore.isPending &&
          restore.variables?.versionId === version.version_id &&
          restore.variables.documentId === version.document_id;
        return (
          <Table.Tr key={version.version_id} data-version-id={version.version_id}>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{documentName(version)}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>Version {version.version}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDay(version.effective_on)}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(version.superseded_at)}</Table.Td>
            <Table.Td>
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <Button
                  size="xs"
                  variant="subtle"
                  component={Link}
                  to={policyRoute(projectId, `documents/${version.document_id}`)}
                  aria-label={`View ${documentName(version)}`}
                >
                  View
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setConfirming(version)}
                  loading={busy}
                  aria-label={`Restore as draft: ${name}`}
                >
                  Restore as draft
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ArchiveSection>
  );
}
