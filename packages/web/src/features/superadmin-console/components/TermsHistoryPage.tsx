import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Typography,
  VisuallyHidden,
} from '@mantine/core';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ListPanel } from '../../../components/page-parts';
import { messageFor } from '../../../lib/api';
import { formatDateLong, formatDateTime } from '../../../lib/dates';
import { sanitizeHtml } from '../../../lib/sanitize';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTermsVersion } from '../api/get-terms-version';
import { type TermsVersion, useTermsVersions } from '../api/get-terms-versions';
import { plural } from '../console-format';
import { htmlToText } from '../html-text';
import { type DiffPart, diffWords } from '../word-diff';
import { ConsolePageHeader, LoadError, QueryLoadError, RowsSkeleton } from './parts';

const BOX_HEIGHT = '24rem';

/** 'Version 3 (published March 4, 2026)' or 'Version 4 (draft)'. */
function versionLabel(version: TermsVersion): string {
  return version.status === 'draft' || !version.published_at
    ? `Version ${version.id} (draft)`
    : `Version ${version.id} (published ${formatDateLong(version.published_at)})`;
}

/** /superadmin/terms_and_conditions/history: every version, who accepted it, and a word diff between two. */
export function TermsHistoryPage() {
  usePageTitle('Terms and Conditions History');
  const list = useTermsVersions();
  const [viewing, setViewing] = useState<TermsVersion | null>(null);

  const versions = list.data?.versions ?? [];
  const newestPublished = versions.find((version) => version.status === 'published') ?? null;

  let summary: ReactNode = null;
  if (list.data) {
    summary = newestPublished ? (
      <Alert
        color={list.data.pending_acceptance > 0 ? 'orange' : 'teal'}
        variant="light"
        data-testid="pending-acceptance"
      >
        {list.data.pending_acceptance > 0
          ? `${plural(list.data.pending_acceptance, 'active user has', 'active users have')} not accepted version ${newestPublished.id}, the newest, yet.`
          : `Every active user has accepted version ${newestPublished.id}, the newest.`}
      </Alert>
    ) : null;
  }

  let table: ReactNode;
  if (list.isPending) {
    table = <RowsSkeleton label="Loading the versions" rows={4} />;
  } else if (list.isError) {
    table = <QueryLoadError inset query={list} fallback="The versions could not be loaded. Please try again." />;
  } else if (versions.length === 0) {
    table = (
      <Stack gap="sm" p="md" align="flex-start">
        <Text>No version of the terms has been written yet.</Text>
        <Button component={Link} to="/superadmin/terms_and_conditions" variant="default">
          Write the terms
        </Button>
      </Stack>
    );
  } else {
    table = (
      <Table.ScrollContainer minWidth={680}>
        <Table verticalSpacing="sm" horizontalSpacing="md" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Version</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Published</Table.Th>
              <Table.Th scope="col" ta="right">
                Accepted by
              </Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.map((version) => (
              <Table.Tr key={version.id} data-version-id={version.id}>
                <Table.Td fw={600}>{version.id}</Table.Td>
                <Table.Td>
                  {version.status === 'draft' ? (
                    <Badge color="gray.7" variant="outline">
                      Draft
                    </Badge>
                  ) : version.id === newestPublished?.id ? (
                    <Badge color="teal.9" variant="filled">
                      Current
                    </Badge>
                  ) : (
                    <Badge color="blue.9" variant="outline">
                      Published
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  {version.published_at ? (
                    <>
                      <time dateTime={version.published_at}>{formatDateTime(version.published_at)}</time>
                      {version.published_by && (
                        <Text size="sm" c="gray.7">
                          by {version.published_by.name}
                        </Text>
                      )}
                    </>
                  ) : (
                    <Text size="sm" c="gray.7">
                      Not published (saved {formatDateTime(version.updated_at)})
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  {version.status === 'draft' ? '—' : plural(version.accepted_count, 'user')}
                </Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => setViewing(version)}
                    aria-label={`View version ${version.id}`}
                  >
                    View
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <ConsolePageHeader
        title="Terms and Conditions History"
        description="Every version of the terms, who published it and how many users accepted it."
        actions={
          <Button component={Link} to="/superadmin/terms_and_conditions" variant="default">
            Edit the terms
          </Button>
        }
      />
      {summary}
      <ListPanel>{table}</ListPanel>
      {versions.length > 1 && <Compare versions={versions} />}
      <ViewVersionModal version={viewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}

function ViewVersionModal({ version, onClose }: { version: TermsVersion | null; onClose: () => void }) {
  const detail = useTermsVersion(version?.id ?? null);
  const html = useMemo(() => sanitizeHtml(detail.data?.content ?? ''), [detail.data?.content]);
  let body: ReactNode;
  if (detail.data) {
    body = html.trim() ? (
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised just above with the SPEC policy
      <Typography dangerouslySetInnerHTML={{ __html: html }} />
    ) : (
      <Text c="gray.7">This version has no text.</Text>
    );
  } else if (detail.isError) {
    body = <QueryLoadError query={detail} fallback="This version could not be loaded. Please try again." />;
  } else {
    body = (
      <Stack gap="xs" role="status" aria-label="Loading the version">
        <Skeleton height={20} width="60%" />
        <Skeleton height={14} />
        <Skeleton height={14} />
        <Skeleton height={14} width="80%" />
      </Stack>
    );
  }
  return (
    <Modal
      opened={version !== null}
      onClose={onClose}
      title={version ? versionLabel(version) : ''}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Paper
        withBorder
        radius="md"
        p="md"
        h={BOX_HEIGHT}
        role="region"
        aria-label="Text of the version"
        tabIndex={0}
        style={{ overflowY: 'auto' }}
      >
        {body}
      </Paper>
    </Modal>
  );
}

/** Two versions side by side as one text: what the newer one removed and added, word by word. */
function Compare({ versions }: { versions: TermsVersion[] }) {
  // Newest first: by default the newest against the one before it.
  const [toId, setToId] = useState<string | null>(String(versions[0]!.id));
  const [fromId, setFromId] = useState<string | null>(String(versions[1]!.id));
  const options = versions.map((version) => ({ value: String(version.id), label: versionLabel(version) }));
  const from = useTermsVersion(fromId ? Number(fromId) : null);
  const to = useTermsVersion(toId ? Number(toId) : null);
  const same = fromId !== null && fromId === toId;

  const diff = useMemo(() => {
    if (!from.data || !to.data || same) return null;
    return diffWords(htmlToText(from.data.content), htmlToText(to.data.content));
  }, [from.data, to.data, same]);

  let result: ReactNode;
  if (!fromId || !toId) {
    result = <Text c="gray.7">Choose two versions to compare.</Text>;
  } else if (same) {
    result = <Text c="gray.7">Choose two different versions to compare.</Text>;
  } else if (from.isError || to.isError) {
    result = (
      <LoadError
        message={messageFor(from.error ?? to.error, 'The versions could not be loaded. Please try again.')}
        retrying={from.isFetching || to.isFetching}
        onRetry={() => {
          if (from.isError) void from.refetch();
          if (to.isError) void to.refetch();
        }}
      />
    );
  } else if (!diff) {
    result = <RowsSkeleton label="Comparing the versions" rows={5} height={16} />;
  } else {
    result = <DiffView parts={diff.parts} removed={diff.removed} added={diff.added} />;
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="compare-title">
      <Stack gap="md">
        <Title order={2} fz="h4" id="compare-title">
          Compare versions
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Older version"
            data={options}
            value={fromId}
            onChange={setFromId}
            allowDeselect={false}
            checkIconPosition="right"
          />
          <Select
            label="Newer version"
            data={options}
            value={toId}
            onChange={setToId}
            allowDeselect={false}
            checkIconPosition="right"
          />
        </SimpleGrid>
        {result}
      </Stack>
    </Paper>
  );
}

// Dark text on a light tint keeps the contrast; the line through or under, and the legend, carry the meaning too.
const REMOVED_STYLE = {
  backgroundColor: 'var(--mantine-color-red-1)',
  textDecoration: 'line-through',
  textDecorationColor: 'var(--mantine-color-red-9)',
  textDecorationThickness: '2px',
};
const ADDED_STYLE = {
  backgroundColor: 'var(--mantine-color-green-1)',
  textDecoration: 'underline',
  textDecorationColor: 'var(--mantine-color-green-9)',
  textDecorationThickness: '2px',
};

function DiffView({ parts, removed, added }: { parts: DiffPart[]; removed: number; added: number }) {
  if (removed === 0 && added === 0) {
    return <Text data-testid="diff-summary">The two versions have the same text.</Text>;
  }
  return (
    <Stack gap="sm">
      <Group gap="lg" justify="space-between">
        <Text size="sm" data-testid="diff-summary">
          {plural(removed, 'word')} removed, {plural(added, 'word')} added.
        </Text>
        <Group gap="md" aria-label="Legend" role="group">
          <Text size="sm">
            <del style={REMOVED_STYLE}>Removed text</del>
          </Text>
          <Text size="sm">
            <ins style={ADDED_STYLE}>Added text</ins>
          </Text>
        </Group>
      </Group>
      <Paper
        withBorder
        radius="md"
        p="md"
        mah="32rem"
        role="region"
        aria-label="Differences"
        tabIndex={0}
        style={{ overflowY: 'auto' }}
      >
        <Text component="div" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.7 }}>
          {parts.map((part, index) => {
            // A paragraph break shows as a blank line; one that changed shows as a pilcrow.
            const text = part.text.replace(/\n/g, part.kind === 'same' ? '\n\n' : '¶\n\n');
            if (part.kind === 'removed') {
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts have no identity but their order
                <del key={index} style={REMOVED_STYLE}>
                  {text}
                </del>
              );
            }
            if (part.kind === 'added') {
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts have no identity but their order
                <ins key={index} style={ADDED_STYLE}>
                  {text}
                </ins>
              );
            }
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts have no identity but their order
            return <span key={index}>{text}</span>;
          })}
        </Text>
      </Paper>
    </Stack>
  );
}
