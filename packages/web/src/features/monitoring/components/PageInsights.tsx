import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { INSIGHT_TITLE_MAX, type InsightStatus } from '@portal/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { DialogActions } from '../../../components/form-parts/DialogActions';
import { RowAction } from '../../../components/form-parts/RowAction';
import { QueryBody } from '../../../components/page-parts';
import { RichTextEditor } from '../../../components/RichTextEditor';
import { messageFor } from '../../../lib/api';
import { formatDate } from '../../../lib/dates';
import { serverFieldErrors } from '../../../lib/field-errors';
import { type Insight, useCreateInsight, useDeleteInsight, usePageInsights } from '../api/insights-page';
import { insightTitleProblem } from './insight-title';
import { RichContent } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

/** "Published Mar 2, 2026 by Ada Admin" or "Draft, saved Mar 2, 2026 by Ada Admin". */
function byline(insight: Insight): string {
  const by = insight.author ? ` by ${insight.author.name}` : '';
  return insight.status === 'published' && insight.published_at
    ? `Published ${formatDate(insight.published_at)}${by}`
    : `Draft, saved ${formatDate(insight.updated_at)}${by}`;
}

/**
 * The "Key insights" section of a page view: published insights newest first (drafts too, marked, for those who may
 * edit the page), with Add, Edit and Delete for editors. The server decides who sees drafts and sends abilities.
 */
export function PageInsights({ pageId, canEdit }: { pageId: number; canEdit: boolean }) {
  const projectId = useMonitoringProjectId();
  const insights = usePageInsights(projectId, pageId);
  const remove = useDeleteInsight(projectId);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Insight | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    setDeleting(null);
    remove.mutate(target.id, {
      onSuccess: () => toast.success(`Key insight "${target.title}" deleted.`),
      onError: (error) => toast.error(messageFor(error, 'The key insight could not be deleted.')),
    });
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="page-insights-title">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h4" id="page-insights-title">
          Key insights
        </Title>
        {canEdit && (
          <Button size="sm" onClick={() => setAdding(true)}>
            Add key insight
          </Button>
        )}
      </Group>

      <QueryBody
        query={insights}
        fallback="The key insights could not be loaded."
        loadingLabel="Loading the key insights"
        rows={2}
      >
        {(data) =>
          data.length === 0 ? (
            <Stack gap={2}>
              <Text c="dimmed">No key insights yet.</Text>
              {canEdit && (
                <Text c="dimmed" size="sm">
                  Add one to say what the data on this page shows and what is being done about it.
                </Text>
              )}
            </Stack>
          ) : (
            <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
              {data.map((insight) => (
                <Paper component="li" key={insight.id} withBorder p="md" radius="md" data-insight-id={insight.id}>
                  <Stack gap="xs">
                    <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
                      <Stack gap={2}>
                        <Group gap="xs" wrap="wrap">
                          <Title order={3} size="h5">
                            {insight.title}
                          </Title>
                          {insight.status === 'draft' && (
                            <Badge color="gray.8" variant="light">
                              Draft
                            </Badge>
                          )}
                        </Group>
                        <Text size="sm" c="dimmed">
                          {byline(insight)}
                        </Text>
                      </Stack>
                      {insight.abilities.edit && (
                        <Group gap="xs">
                          <Anchor
                            component={Link}
                            to={monitoringRoute(projectId, `key-insights/edit/${insight.id}`)}
                            size="sm"
                            aria-label={`Edit ${insight.title}`}
                          >
                            Edit
                          </Anchor>
                          {insight.abilities.delete && (
                            <RowAction
                              color="red.9"
                              aria-label={`Delete ${insight.title}`}
                              onClick={() => setDeleting(insight)}
                            >
                              Delete
                            </RowAction>
                          )}
                        </Group>
                      )}
                    </Group>
                    <RichContent html={insight.body} emptyText="No text." />
                  </Stack>
                </Paper>
              ))}
            </Stack>
          )
        }
      </QueryBody>

      {canEdit && <AddInsightModal opened={adding} pageId={pageId} onClose={() => setAdding(false)} />}
      <ConfirmActionModal
        opened={deleting !== null}
        title="Delete key insight"
        message={deleting ? `Delete the key insight "${deleting.title}"? It disappears from this page.` : ''}
        confirmLabel="Delete"
        danger
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

const FIELDS = ['title', 'body'] as const;

/** The new-insight form: a title and rich text, saved as a draft or published at once. */
function AddInsightModal({ opened, pageId, onClose }: { opened: boolean; pageId: number; onClose: () => void }) {
  const projectId = useMonitoringProjectId();
  const create = useCreateInsight(projectId, pageId);
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<Partial<Record<(typeof FIELDS)[number], string>>>({});
  const [pending, setPending] = useState<InsightStatus | null>(null);

  const close = () => {
    setTitle('');
    setBody('');
    setErrors({});
    onClose();
  };

  const save = (status: InsightStatus) => {
    const problem = insightTitleProblem(title);
    if (problem) {
      setErrors({ title: problem });
      return;
    }
    const trimmed = title.trim();
    setErrors({});
    setPending(status);
    create.mutate(
      { title: trimmed, body, status },
      {
        onSuccess: () => {
          toast.success(status === 'published' ? 'Key insight published.' : 'Key insight saved as a draft.');
          close();
        },
        onError: (error) => {
          const fields = serverFieldErrors(error, FIELDS);
          setErrors(fields);
          if (Object.keys(fields).length === 0) toast.error(messageFor(error, 'The key insight could not be saved.'));
        },
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Add key insight"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <TextInput
          label="Title"
          withAsterisk
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          error={errors.title}
          maxLength={INSIGHT_TITLE_MAX + 20}
          data-autofocus
        />
        <RichTextEditor label="Insight" value={body} onChange={setBody} error={errors.body} minHeight="10rem" />
        <DialogActions onCancel={close}>
          <Button
            variant="light"
            onClick={() => save('draft')}
            loading={pending === 'draft'}
            disabled={pending !== null}
          >
            Save draft
          </Button>
          <Button onClick={() => save('published')} loading={pending === 'published'} disabled={pending !== null}>
            Publish
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}
