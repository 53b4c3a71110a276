import { Alert, Button, Grid, NavLink, Paper, Select, Stack, Text } from '@mantine/core';
import type { Dataset, Measure } from '@portal/shared';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadFailure, LoadingRows, PageHeading } from '../../../components/page-parts';
import { ApiError } from '../../../lib/api';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDatasets } from '../api/data-datasets';
import { useMeasure } from '../api/measures-detail';
import { usePageMeasures } from '../api/measures-list';
import { usePageTree } from '../api/pages-list';
import { MeasureEditor } from './MeasureEditor';
import { MEASURE_TYPE_SHORT } from './measure-parts';
import { pageName } from './pages-parts';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

const EMPTY_TEXT = 'No measures on this page yet. Add one to define what is counted.';
const idOf = (raw: string | null) => (raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null);

/**
 * formula-builder?page={pageId}&measure={measureId|new}: pick a page you may edit, then define its measures (what
 * is counted, over what, how it reads) with their formulas, targets, benchmarks, phases and annotations.
 */
export function FormulaBuilderPage() {
  const projectId = useMonitoringProjectId();
  usePageTitle('Formula builder');
  const [search, setSearch] = useSearchParams();
  const pageId = idOf(search.get('page'));
  const tree = usePageTree(projectId);

  const options = useMemo(
    () =>
      (tree.data?.pages ?? [])
        .filter((node) => node.abilities.edit)
        .map((node) => ({ value: String(node.id), label: `${'— '.repeat(node.depth - 1)}${pageName(node)}` })),
    [tree.data],
  );

  return (
    <Stack gap="md">
      <PageHeading title="Formula builder">
        Define the measures of a page: what is counted, out of what, and how the numbers are read.
      </PageHeading>
      {tree.isError ? (
        <LoadFailure
          error={tree.error}
          fallback="The pages could not be loaded."
          retrying={tree.isFetching}
          onRetry={() => void tree.refetch()}
        />
      ) : !tree.data ? (
        <LoadingRows label="Loading the pages" rows={1} />
      ) : options.length === 0 && pageId === null ? (
        <Text>
          There is no page you may add measures to. A page owner or a monitoring administrator can give you edit access.
        </Text>
      ) : (
        <Select
          label="Page"
          description="The page whose measures you define (pages you may edit)."
          placeholder="Choose a page"
          data={options}
          value={pageId !== null && options.some((option) => option.value === String(pageId)) ? String(pageId) : null}
          onChange={(value) => value && setSearch({ page: value })}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No page by that name"
          maw={560}
        />
      )}
      {pageId !== null && <PageMeasures projectId={projectId} pageId={pageId} measureParam={search.get('measure')} />}
    </Stack>
  );
}

function PageMeasures({
  projectId,
  pageId,
  measureParam,
}: {
  projectId: string;
  pageId: number;
  measureParam: string | null;
}) {
  const list = usePageMeasures(projectId, pageId);
  const datasetList = useDatasets(projectId);
  const datasets = datasetList.data?.datasets;
  const [, setSearch] = useSearchParams();
  const link = (measure: number | 'new') => `?page=${pageId}&measure=${measure}`;

  if (list.error instanceof ApiError && list.error.status === 404) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text>This page does not exist, was deleted, or is not shared with you.</Text>
        <Button component={Link} to={monitoringRoute(projectId, 'pages')} variant="default">
          Back to the pages
        </Button>
      </Stack>
    );
  }
  const failed = list.isError ? list : datasetList.isError ? datasetList : null;
  if (failed) {
    return (
      <LoadFailure
        error={failed.error}
        fallback="The measures could not be loaded."
        retrying={failed.isFetching}
        onRetry={() => void failed.refetch()}
      />
    );
  }
  if (!list.data || !datasets) return <LoadingRows label="Loading the measures" />;

  const { measures, abilities } = list.data;
  const measureId = idOf(measureParam);
  const creating = measureParam === 'new' && abilities.edit;

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 4, lg: 3 }}>
        <Paper withBorder p="xs" component="nav" aria-label="Measures of this page">
          <Stack gap={4}>
            {measures.map((measure) => (
              <NavLink
                key={measure.id}
                component={Link}
                to={link(measure.id)}
                label={measure.name}
                description={
                  <Text span size="xs" c="gray.8">
                    {MEASURE_TYPE_SHORT[measure.type]}
                  </Text>
                }
                active={measure.id === measureId}
                aria-current={measure.id === measureId ? 'page' : undefined}
              />
            ))}
            {measures.length === 0 && (
              <Text size="sm" c="dimmed" p="xs">
                No measures yet.
              </Text>
            )}
            {abilities.edit && (
              <Button component={Link} to={link('new')} variant={creating ? 'filled' : 'light'} mt={4}>
                New measure
              </Button>
            )}
          </Stack>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8, lg: 9 }}>
        {creating ? (
          <MeasureEditor
            key="new"
            projectId={projectId}
            pageId={pageId}
            measure={null}
            datasets={datasets}
            canEdit
            onCreated={(id) => setSearch({ page: String(pageId), measure: String(id) })}
            onDeleted={() => setSearch({ page: String(pageId) })}
          />
        ) : measureId !== null ? (
          <SavedMeasure
            key={measureId}
            projectId={projectId}
            pageId={pageId}
            measureId={measureId}
            datasets={datasets}
            canEdit={abilities.edit}
          />
        ) : (
          <NoMeasureChosen measures={measures} canEdit={abilities.edit} newLink={link('new')} />
        )}
      </Grid.Col>
    </Grid>
  );
}

function NoMeasureChosen({ measures, canEdit, newLink }: { measures: Measure[]; canEdit: boolean; newLink: string }) {
  if (measures.length > 0) {
    return (
      <Text c="dimmed">{canEdit ? 'Choose a measure to edit, or add a new one.' : 'Choose a measure to read it.'}</Text>
    );
  }
  return (
    <Paper withBorder p="lg">
      <Stack gap="sm" align="flex-start">
        <Text>{EMPTY_TEXT}</Text>
        {canEdit && (
          <Button component={Link} to={newLink}>
            New measure
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

function SavedMeasure({
  projectId,
  pageId,
  measureId,
  datasets,
  canEdit,
}: {
  projectId: string;
  pageId: number;
  measureId: number;
  datasets: Dataset[];
  canEdit: boolean;
}) {
  const measure = useMeasure(projectId, measureId);
  const [, setSearch] = useSearchParams();

  // A measure of another page (an old link) is not edited here.
  if (
    (measure.error instanceof ApiError && measure.error.status === 404) ||
    (measure.data && measure.data.page_id !== pageId)
  ) {
    return (
      <Alert color="gray" variant="light" title="Measure not found">
        This measure does not exist on this page, was deleted, or is not shared with you.
      </Alert>
    );
  }
  if (measure.isError) {
    return (
      <LoadFailure
        error={measure.error}
        fallback="The measure could not be loaded."
        retrying={measure.isFetching}
        onRetry={() => void measure.refetch()}
      />
    );
  }
  if (!measure.data) return <LoadingRows label="Loading the measure" />;
  return (
    <MeasureEditor
      projectId={projectId}
      pageId={pageId}
      measure={measure.data}
      datasets={datasets}
      canEdit={canEdit && measure.data.abilities.edit}
      onDeleted={() => setSearch({ page: String(pageId) })}
    />
  );
}
