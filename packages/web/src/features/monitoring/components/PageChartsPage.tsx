import { Anchor, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ConfirmActionModal } from '../../../components/ConfirmActionModal';
import { RowAction } from '../../../components/form-parts/RowAction';
import { LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { ApiError, messageFor } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useUpdateChart } from '../api/charts-detail';
import { useChartMeasures } from '../api/charts-measures';
import { type Chart, useDeleteChart, usePageCharts } from '../api/charts-page';
import { usePage } from '../api/pages-detail';
import { usePageTree } from '../api/pages-list';
import { pageName } from './pages-parts';
import { SavedChart } from './SavedChart';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const pageIdOf = (raw: string | null) => (raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null);

/** The page whose charts are shown, kept in the URL (?page=) so the screen can be bookmarked and shared. */
function PagePicker({ pageId, onChange }: { pageId: number | null; onChange: (pageId: string | null) => void }) {
  const projectId = useMonitoringProjectId();
  const tree = usePageTree(projectId);
  if (tree.isError) {
    return (
      <LoadFailure
        error={tree.error}
        fallback="The pages could not be loaded."
        retrying={tree.isFetching}
        onRetry={() => void tree.refetch()}
      />
    );
  }
  const data = (tree.data?.pages ?? []).map((node) => ({
    value: String(node.id),
    label: `${'— '.repeat(Math.max(0, node.depth - 1))}${pageName(node)}`,
  }));
  return (
    <Select
      label="Page"
      placeholder={tree.isPending ? 'Loading the pages…' : 'Choose a page'}
      data={data}
      value={pageId === null ? null : String(pageId)}
      onChange={onChange}
      searchable
      nothingFoundMessage="No page matches."
      maw={480}
      allowDeselect={false}
    />
  );
}

/** page-charts?page={pageId}: the charts of a page in order; editors add, change, move and remove them. */
export function PageChartsPage(_props: Record<string, never>) {
  const projectId = useMonitoringProjectId();
  const [params, setParams] = useSearchParams();
  const pageId = pageIdOf(params.get('page'));
  const page = usePage(projectId, pageId);
  usePageTitle(page.data ? `Charts: ${pageName(page.data)}` : 'Page charts');

  const choose = (value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set('page', value);
      else next.delete('page');
      return next;
    });

  return (
    <Stack gap="md">
      <PageHeading title={page.data ? `Charts of ${pageName(page.data)}` : 'Page charts'}>
        The run and control charts shown on a page, in the order readers see them.
      </PageHeading>
      <PagePicker pageId={pageId} onChange={choose} />
      {pageId === null ? (
        <Text c="dimmed">Choose a page to see and arrange its charts.</Text>
      ) : page.isError && page.error instanceof ApiError && page.error.status === 404 ? (
        <Text>This page does not exist, was deleted, or is not shared with you.</Text>
      ) : (
        <PageCharts pageId={pageId} />
      )}
    </Stack>
  );
}

function PageCharts({ pageId }: { pageId: number }) {
  const projectId = useMonitoringProjectId();
  const charts = usePageCharts(projectId, pageId);
  const measures = useChartMeasures(projectId, pageId);
  const remove = useDeleteChart(projectId);
  const update = useUpdateChart(projectId);
  const [deleting, setDeleting] = useState<Chart | null>(null);

  if (charts.isPending) return <LoadingRows label="Loading the charts" rows={3} />;
  if (charts.isError) {
    return (
      <LoadFailure
        error={charts.error}
        fallback="The charts could not be loaded."
        retrying={charts.isFetching}
        onRetry={() => void charts.refetch()}
      />
    );
  }
  const { abilities } = charts.data;
  const list = [...charts.data.charts].sort((a, b) => a.position - b.position);
  const noMeasures = measures.data?.measures.length === 0;
  const viewLink = monitoringRoute(projectId, `pages/page/${pageId}`);

  const move = (chart: Chart, position: number) =>
    update.mutate(
      { chartId: chart.id, input: { version: chart.version, position } },
      {
        onSuccess: () => toast.success(`Chart "${chart.title}" moved.`),
        onError: (error) => {
          toast.error(messageFor(error, 'The chart could not be moved.'));
          void charts.refetch();
        },
      },
    );

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    setDeleting(null);
    remove.mutate(target.id, {
      onSuccess: () => toast.success(`Chart "${target.title}" deleted.`),
      onError: (error) => toast.error(messageFor(error, 'The chart could not be deleted.')),
    });
  };

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap">
        {abilities.edit && !noMeasures && (
          <Button component={Link} to={monitoringRoute(projectId, `add-page-chart?page=${pageId}`)}>
            Add chart
          </Button>
        )}
        <Button component={Link} to={viewLink} variant="default">
          View page
        </Button>
      </Group>

      {list.length === 0 ? (
        <Stack gap={4}>
          <Text c="dimmed">No charts on this page yet.</Text>
          {noMeasures && abilities.edit && (
            <Anchor component={Link} to={monitoringRoute(projectId, `formula-builder?page=${pageId}`)}>
              Define a measure first
            </Anchor>
          )}
        </Stack>
      ) : (
        <Stack component="ol" gap="md" m={0} p={0} style={{ listStyle: 'none' }}>
          {list.map((chart, index) => (
            <Paper component="li" key={chart.id} withBorder p="md" radius="md">
              <SavedChart
                chart={chart}
                actions={
                  abilities.edit && (
                    <Group gap={4} wrap="wrap">
                      <Button
                        component={Link}
                        to={monitoringRoute(projectId, `edit-page-chart/${chart.id}`)}
                        size="compact-sm"
                        variant="subtle"
                        aria-label={`Edit ${chart.title}`}
                      >
                        Edit
                      </Button>
                      <RowAction
                        disabled={index === 0 || update.isPending}
                        onClick={() => move(chart, index - 1)}
                        aria-label={`Move up: ${chart.title}`}
                      >
                        Move up
                      </RowAction>
                      <RowAction
                        disabled={index === list.length - 1 || update.isPending}
                        onClick={() => move(chart, index + 1)}
                        aria-label={`Move down: ${chart.title}`}
                      >
                        Move down
                      </RowAction>
                      <RowAction color="red.9" onClick={() => setDeleting(chart)} aria-label={`Delete ${chart.title}`}>
                        Delete
                      </RowAction>
                    </Group>
                  )
                }
              />
            </Paper>
          ))}
        </Stack>
      )}

      <ConfirmActionModal
        opened={deleting !== null}
        title="Delete chart"
        message={deleting ? `Delete chart "${deleting.title}"?` : ''}
        confirmLabel="Delete"
        danger
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
