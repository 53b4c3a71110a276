import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { InsightStatus } from '@portal/shared';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { LoadFailure, LoadingRows, PageHeading, QueryBody } from '../../../components/page-parts';
import { RichTextEditor } from '../../../components/RichTextEditor';
import { ApiError, messageFor } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import { usePageTitle } from '../../../lib/use-page-title';
import { type InsightDetail, useInsight, useInsightRevisions, useUpdateInsight } from '../api/insights-detail';
import { useDraftInsight } from '../api/series-insight-draft';
import { insightTitleProblem } from './insight-title';
import { pageName } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const FIELDS = ['title', 'body', 'version'] as const;
const STATUS_TEXT: Record<InsightStatus, string> = { draft: 'Draft', published: 'Published' };

/**
 * key-insights/edit/{insightId} (SPEC says the path carries the project slug; the app's routing accepts id or
 * slug): the title, the rich text and the status of one key insight, with its revision history. A stale save shows
 * who changed it first and keeps the text typed here.
 */
export function InsightEditPage(_props: Record<string, never>) {
  const projectId = useMonitoringProjectId();
  const { insightId: raw } = useParams();
  const insightId = /^\d{1,10}$/.test(raw ?? '') ? Number(raw) : 0;
  const insight = useInsight(projectId, insightId);
  usePageTitle(insight.data ? `Edit key insight: ${insight.data.title}` : 'Edit key insight');

  if (insightId === 0 || (insight.isError && insight.error instanceof ApiError && insight.error.status === 404)) {
    return (
      <Stack gap="md">
        <PageHeading title="Key insight not found" />
        <Text>This key insight does not exist, was deleted, or belongs to a page you cannot see.</Text>
        <Anchor component={Link} to={monitoringRoute(projectId, 'pages')}>
          Back to the pages
        </Anchor>
      </Stack>
    );
  }
  if (insight.isPending) return <LoadingRows label="Loading the key insight" />;
  if (insight.isError) {
    return (
      <LoadFailure
        error={insight.error}
        fallback="The key insight could not be loaded."
        retrying={insight.isFetching}
        onRetry={() => void insight.refetch()}
      />
    );
  }
  return <InsightEditor insight={insight.data} onReload={() => insight.refetch()} />;
}

function InsightEditor({
  insight,
  onReload,
}: {
  insight: InsightDetail;
  onReload: () => Promise<{ data?: InsightDetail }>;
}) {
  const projectId = useMonitoringProjectId();
  const update = useUpdateInsight(projectId, insight.id);
  const [version, setVersion] = useState(insight.version);
  const [title, setTitle] = useState(insight.title);
  const [body, setBody] = useState(insight.body);
  const [errors, setErrors] = useState<Partial<Record<(typeof FIELDS)[number], string>>>({});
  const [conflict, setConflict] = useState<string | null>(null);
  const [pending, setPending] = useState<'save' | InsightStatus | null>(null);
  const pagePath = monitoringRoute(projectId, `pages/page/${insight.page.id}`);
  const draft = useDraftInsight(projectId, insight.page.id);

  // The summary of the page's signals is added to the text (and fills an empty title); saving stays the author's act.
  const insertSignalSummary = () =>
    draft.mutate(undefined, {
      onSuccess: (summary) => {
        setBody((current) => current + summary.body);
        setTitle((current) => (current.trim() ? current : summary.title));
        toast.success('Signal summary inserted. Check the text, then save.');
      },
      onError: (error) => toast.error(messageFor(error, 'The signal summary could not be written.')),
    });

  // After a reload the server's version is the one to build on; the typed text stays.
  useEffect(() => {
    if (conflict === null) setVersion(insight.version);
  }, [insight.version, conflict]);

  const save = (status?: InsightStatus) => {
    const problem = insightTitleProblem(title);
    if (problem) {
      setErrors({ title: problem });
      return;
    }
    const trimmed = title.trim();
    setErrors({});
    setPending(status ?? 'save');
    update.mutate(
      { version, title: trimmed, body, ...(status ? { status } : {}) },
      {
        onSuccess: (saved) => {
          setVersion(saved.version);
          setConflict(null);
          toast.success(
            status === 'published'
              ? 'Key insight published.'
              : status === 'draft'
                ? 'Key insight unpublished: it is a draft again.'
                : 'Key insight saved.',
          );
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) {
            setConflict(error.message);
            return;
          }
          const fields = serverFieldErrors(error, FIELDS);
          setErrors(fields);
          if (Object.keys(fields).length === 0) toast.error(messageFor(error, 'The key insight could not be saved.'));
        },
        onSettled: () => setPending(null),
      },
    );
  };

  // The alert stays until the current version has arrived, so a save right after builds on it.
  // The reloaded version is set in the same update that hides the alert, never a render later.
  const reload = async () => {
    const { data } = await onReload();
    if (data) setVersion(data.version);
    setConflict(null);
  };

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={pagePath} size="sm">
        Back to {pageName(insight.page)}
      </Anchor>
      <Group gap="sm" align="center" wrap="wrap">
        <PageHeading title="Edit key insight">Page {pageName(insight.page)}</PageHeading>
        <Badge color={insight.status === 'published' ? 'green.9' : 'gray.8'} variant="light">
          {STATUS_TEXT[insight.status]}
        </Badge>
      </Group>

      {conflict && (
        <Alert color="yellow" variant="light" role="alert" title="Someone else changed this insight">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{conflict}</Text>
            <Text size="sm">
              Reload to build on their version: your title and text stay here, so you can save them again.
            </Text>
            <Button size="xs" variant="default" onClick={() => void reload()}>
              Reload
            </Button>
          </Stack>
        </Alert>
      )}

      <Stack gap="md">
        <TextInput
          label="Title"
          withAsterisk
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          error={errors.title}
        />
        <RichTextEditor label="Insight" value={body} onChange={setBody} error={errors.body} />
        <Group>
          <Button variant="light" size="sm" onClick={insertSignalSummary} loading={draft.isPending}>
            Insert signal summary
          </Button>
        </Group>
        <Group gap="sm" wrap="wrap">
          <Button onClick={() => save()} loading={pending === 'save'} disabled={pending !== null}>
            Save
          </Button>
          {insight.status === 'draft' ? (
            <Button
              variant="light"
              onClick={() => save('published')}
              loading={pending === 'published'}
              disabled={pending !== null}
            >
              Publish
            </Button>
          ) : (
            <Button
              variant="light"
              color="gray"
              onClick={() => save('draft')}
              loading={pending === 'draft'}
              disabled={pending !== null}
            >
              Unpublish
            </Button>
          )}
          <Button component={Link} to={pagePath} variant="default">
            Cancel
          </Button>
        </Group>
      </Stack>

      <RevisionHistory insightId={insight.id} version={insight.version} />
    </Stack>
  );
}

function RevisionHistory({ insightId, version }: { insightId: number; version: number }) {
  const projectId = useMonitoringProjectId();
  const revisions = useInsightRevisions(projectId, insightId);
  // A save elsewhere on the screen adds a revision.
  const { refetch } = revisions;
  useEffect(() => {
    if (version) void refetch();
  }, [version, refetch]);

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="insight-history-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="insight-history-title">
          History
        </Title>
        <QueryBody
          query={revisions}
          fallback="The history could not be loaded."
          loadingLabel="Loading the history"
          rows={2}
        >
          {(data) => (
            <Table.ScrollContainer minWidth={480}>
              <Table aria-labelledby="insight-history-title" striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Version</Table.Th>
                    <Table.Th>Title</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Saved by</Table.Th>
                    <Table.Th>Saved on</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.map((revision) => (
                    <Table.Tr key={revision.version}>
                      <Table.Td>{revision.version}</Table.Td>
                      <Table.Td>{revision.title}</Table.Td>
                      <Table.Td>{STATUS_TEXT[revision.status]}</Table.Td>
                      <Table.Td>{revision.edited_by?.name ?? 'Unknown'}</Table.Td>
                      <Table.Td>{formatDate(revision.edited_at)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryBody>
      </Stack>
    </Paper>
  );
}
