import { Anchor, Group, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { CHART_LABELS, type Chart } from '@portal/shared';
import { type ReactNode, useState } from 'react';
import { LoadFailure } from '../../../components/page-parts';
import { LazySpcChart } from '../../../components/spc/LazySpcChart';
import { CHART_HEIGHT } from '../../../components/spc/series-format';
import type { DrawOptions } from '../../../components/spc/spc-chart-options';
import { type Series, type SeriesParams, seriesCsvUrl, useSeries } from '../api/series-measure';
import { SeriesTable } from './SeriesTable';
import { useMonitoringProjectId } from './use-monitoring-project';

interface SeriesViewProps {
  series: Series;
  options: DrawOptions;
  title: string;
  /** The "Export CSV" link; none in a preview of unsaved settings. */
  csvHref?: string;
}

/** A series as a chart or, at the switch, as a table; with the trial-limits note and the CSV export. */
export function SeriesView({ series, options, title, csvHref }: SeriesViewProps) {
  const [table, setTable] = useState(false);
  if (series.points.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {series.empty_reason ?? 'No data for this chart yet.'}
      </Text>
    );
  }
  const { summary } = series;
  return (
    <Stack gap="xs">
      {summary.trial && (
        <Text size="sm" c="dimmed">
          Trial limits: computed from {summary.baseline_points} {summary.baseline_points === 1 ? 'point' : 'points'}{' '}
          (fewer than 20), so they may move as data arrives.
        </Text>
      )}
      {table ? (
        <SeriesTable series={series} options={options} title={title} />
      ) : (
        <LazySpcChart series={series} options={options} title={title} />
      )}
      <Group gap="md" wrap="wrap">
        <Switch
          size="sm"
          label="Show data table"
          checked={table}
          onChange={(event) => setTable(event.currentTarget.checked)}
        />
        {csvHref && (
          <Anchor href={csvHref} download size="sm">
            Export CSV
          </Anchor>
        )}
      </Group>
    </Stack>
  );
}

export const seriesParamsOf = (chart: Chart): SeriesParams => ({
  chart: chart.chart_type,
  stratum: chart.options.stratum,
  from: chart.options.from,
  to: chart.options.to,
  rule_profile: chart.options.rule_profile,
});

/** A saved chart of a page: its heading (with `actions`), its series and the view of it. */
export function SavedChart({
  chart,
  actions,
  headingOrder = 3,
}: {
  chart: Chart;
  actions?: ReactNode;
  headingOrder?: 3 | 4;
}) {
  const projectId = useMonitoringProjectId();
  const params = seriesParamsOf(chart);
  const series = useSeries(projectId, chart.measure.id, params);
  const Heading = headingOrder === 3 ? 'h3' : 'h4';
  return (
    <Stack gap="xs" data-chart-id={chart.id}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text component={Heading} fw={600} size="md" m={0} style={{ overflowWrap: 'anywhere' }}>
            {chart.title}
          </Text>
          <Text size="sm" c="dimmed">
            {CHART_LABELS[chart.chart_type]}
            {chart.options.stratum !== null ? ` · ${chart.options.stratum}` : ''}
          </Text>
        </Stack>
        {actions}
      </Group>
      {series.isPending ? (
        <Skeleton height={CHART_HEIGHT} radius="sm" role="status" aria-label={`Loading ${chart.title}`} />
      ) : series.isError ? (
        <LoadFailure
          error={series.error}
          fallback="The data of this chart could not be loaded."
          retrying={series.isFetching}
          onRetry={() => void series.refetch()}
        />
      ) : (
        <SeriesView
          series={series.data}
          options={chart.options}
          title={chart.title}
          csvHref={seriesCsvUrl(projectId, chart.measure.id, params)}
        />
      )}
    </Stack>
  );
}
