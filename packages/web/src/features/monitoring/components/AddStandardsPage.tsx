import { Alert, Anchor, Paper, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { AddStandardsPanel } from '../../../components/standards-links/AddStandardsPanel';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useMeasure } from '../api/measures-detail';
import { usePageMeasures } from '../api/measures-list';
import { usePageTree } from '../api/pages-list';
import { pageName } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const TITLE = 'Add standards';
export const MEASURE_NOT_FOUND = 'This measure does not exist, was deleted, or is not shared with you.';
const idOf = (raw: string | null) => (raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null);

/**
 * /app/monitoring/{projectId}/add-standards[?page={pageId}][&measure={measureId}] (DOMAIN.md 0.1, 3.3): choose a
 * page and one of its measures, then link the measure to the standard elements it gives evidence for. The section
 * is for monitoring admins (the permission engine guards it).
 */
export function AddStandardsPage() {
  usePageTitle(TITLE);
  const projectId = useMonitoringProjectId();
  const [params, setParams] = useSearchParams();
  const measureId = idOf(params.get('measure'));
  const measure = useMeasure(projectId, measureId);
  // A measure alone names its page.
  const pageId = idOf(params.get('page')) ?? measure.data?.page.id ?? null;
  const tree = usePageTree(projectId);
  const measures = usePageMeasures(projectId, pageId);

  const pageOptions = useMemo(
    () =>
      (tree.data?.pages ?? []).map((node) => ({
        value: String(node.id),
        label: `${'— '.repeat(Math.max(0, node.depth - 1))}${pageName(node)}`,
      })),
    [tree.data],
  );
  const measureOptions = (measures.data?.measures ?? []).map((item) => ({ value: String(item.id), label: item.name }));

  let measurePicker = null;
  if (pageId !== null) {
    if (measures.error instanceof ApiError && measures.error.status === 404) {
      measurePicker = <Text>This page does not exist, was deleted, or is not shared with you.</Text>;
    } else if (measures.isError) {
      measurePicker = (
        <LoadFailure
          error={measures.error}
          fallback="The measures could not be loaded. Please try again."
          retrying={measures.isFetching}
          onRetry={() => void measures.refetch()}
        />
      );
    } else if (measures.isPending) {
      measurePicker = <LoadingRows label="Loading the measures" rows={1} />;
    } else if (measureOptions.length === 0) {
      measurePicker = (
        <Text>
          No measures on this page yet.{' '}
          <Anchor component={Link} to={monitoringRoute(projectId, `formula-builder?page=${pageId}`)}>
            Define a measure
          </Anchor>
        </Text>
      );
    } else {
      measurePicker = (
        <Select
          label="Measure"
          placeholder="Choose a measure"
          data={measureOptions}
          value={
            measureId !== null && measureOptions.some((option) => option.value === String(measureId))
              ? String(measureId)
              : null
          }
          onChange={(value) => value && setParams({ page: String(pageId), measure: value })}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No measure by that name"
          maw={560}
        />
      );
    }
  }

  return (
    <Stack gap="lg" w="100%" maw={1100}>
      <PageHeading title={TITLE}>
        Link a measure to the standard elements it gives evidence for: the Standards app then shows its latest value and
        signals on each element.
      </PageHeading>
      {tree.isError ? (
        <LoadFailure
          error={tree.error}
          fallback="The pages could not be loaded. Please try again."
          retrying={tree.isFetching}
          onRetry={() => void tree.refetch()}
        />
      ) : tree.isPending ? (
        <LoadingRows label="Loading the pages" rows={1} />
      ) : pageOptions.length === 0 ? (
        <Text>There are no pages in Analytics yet.</Text>
      ) : (
        <Select
          label="Page"
          placeholder="Choose a page"
          data={pageOptions}
          value={
            pageId !== null && pageOptions.some((option) => option.value === String(pageId)) ? String(pageId) : null
          }
          onChange={(value) => value && setParams({ page: value })}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No page by that name"
          maw={560}
        />
      )}
      {measurePicker}
      {measureId !== null && <MeasureStandards projectId={projectId} query={measure} />}
    </Stack>
  );
}

function MeasureStandards({ projectId, query }: { projectId: string; query: ReturnType<typeof useMeasure> }) {
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <Alert color="yellow" variant="light" role="alert">
        {MEASURE_NOT_FOUND}
      </Alert>
    );
  }
  if (query.isError) {
    return (
      <LoadFailure
        error={query.error}
        fallback="The measure could not be loaded. Please try again."
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.isPending) {
    return (
      <Stack gap="md" role="status" aria-label="Loading the measure">
        <Skeleton height={80} radius="md" />
        <Skeleton height={200} radius="md" />
      </Stack>
    );
  }

  const measure = query.data;
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="chosen-measure">
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            Measure on {pageName(measure.page)}
          </Text>
          <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
            {measure.name}
          </Title>
          <Anchor
            component={Link}
            to={monitoringRoute(projectId, `pages/page/${measure.page.id}`)}
            size="sm"
            w="fit-content"
          >
            Open the page
          </Anchor>
        </Stack>
      </Paper>
      <AddStandardsPanel
        key={measure.id}
        projectId={projectId}
        targetType="measure"
        targetId={measure.id}
        targetLabel={measure.name}
        canEdit
      />
    </Stack>
  );
}
