import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { MeasureSummary } from '@portal/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { QueryBody } from '../../../components/page-parts';
import { usePageCharts } from '../api/charts-page';
import { useMeasureSummary } from '../api/series-summary';
import { MeasureSummaryTable } from './MeasureSummaryTable';
import { useMonitoringSections } from './pages-parts';
import { SavedChart } from './SavedChart';
import { monitoringRoute, useMonitoringProjectId } from './use-monitoring-project';

function Section({
  id,
  title,
  actions,
  children,
}: {
  id: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={`page-${id}-title`} data-section={id}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h4" id={`page-${id}-title`}>
            {title}
          </Title>
          {actions}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

const DEFINITION_FIELDS = [
  ['description', 'Definition'],
  ['inclusions', 'Included'],
  ['exclusions', 'Excluded'],
  ['data_source', 'Data source'],
  ['owner', 'Owner'],
  ['collection_plan', 'Data collection plan'],
] as const;

/** Each measure's operational definition and its formulas in words. */
function Definitions({ measures }: { measures: MeasureSummary[] }) {
  return (
    <Stack gap="md">
      {measures.map((measure) => (
        <Stack key={measure.measure_id} gap={4}>
          <Title order={3} size="h5">
            {measure.name}
          </Title>
          <Stack component="dl" gap={4} m={0}>
            {DEFINITION_FIELDS.filter(([key]) => measure.definition[key].trim() !== '').map(([key, label]) => (
              <div key={key}>
                <Text component="dt" size="sm" fw={600}>
                  {label}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {measure.definition[key]}
                </Text>
              </div>
            ))}
            <div>
              <Text component="dt" size="sm" fw={600}>
                Formula
              </Text>
              <Text component="dd" size="sm" m={0}>
                {measure.explanation || 'No formula yet.'}
              </Text>
            </div>
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * The measures part of a page view (DOMAIN.md 1.8): the summary table, each chart of the page, and the
 * definitions. Editors get links to arrange the charts and define measures.
 */
export function PageMeasures({ pageId, canEdit }: { pageId: number; canEdit: boolean }) {
  const projectId = useMonitoringProjectId();
  const may = useMonitoringSections(projectId);
  const summary = useMeasureSummary(projectId, pageId);
  const charts = usePageCharts(projectId, pageId);
  const manageCharts = charts.data?.abilities.edit === true && may('page-charts');
  const defineMeasures = canEdit && may('formula-builder');
  const linkStandards = may('add-standards');
  const measures = summary.data ?? [];

  const links = (manageCharts || defineMeasures) && (
    <Group gap="xs">
      {manageCharts && (
        <Button
          component={Link}
          to={monitoringRoute(projectId, `page-charts?page=${pageId}`)}
          variant="default"
          size="xs"
        >
          Manage charts
        </Button>
      )}
      {defineMeasures && (
        <Button
          component={Link}
          to={monitoringRoute(projectId, `formula-builder?page=${pageId}`)}
          variant="default"
          size="xs"
        >
          Define measures
        </Button>
      )}
    </Group>
  );

  return (
    <Stack gap="lg">
      <Section id="measures" title="Measures" actions={links}>
        <QueryBody
          query={summary}
          fallback="The measures could not be loaded."
          loadingLabel="Loading the measures"
          rows={3}
        >
          {() =>
            measures.length === 0 ? (
              <Stack gap={2}>
                <Text c="dimmed">No measures on this page yet.</Text>
                {defineMeasures && (
                  <Text c="dimmed" size="sm">
                    Define a measure to track this page's data with run and control charts.
                  </Text>
                )}
              </Stack>
            ) : (
              <MeasureSummaryTable
                measures={measures}
                standardsHref={
                  linkStandards
                    ? (measureId) => monitoringRoute(projectId, `add-standards?page=${pageId}&measure=${measureId}`)
                    : undefined
                }
              />
            )
          }
        </QueryBody>
      </Section>

      {measures.length > 0 && (
        <Section id="charts" title="Charts">
          <QueryBody
            query={charts}
            fallback="The charts could not be loaded."
            loadingLabel="Loading the charts"
            rows={2}
          >
            {(data) =>
              data.charts.length === 0 ? (
                <Text c="dimmed">No charts on this page yet.</Text>
              ) : (
                <Stack gap="xl">
                  {data.charts.map((chart) => (
                    <SavedChart key={chart.id} chart={chart} />
                  ))}
                </Stack>
              )
            }
          </QueryBody>
        </Section>
      )}

      {measures.length > 0 && (
        <Section id="measure-definitions" title="Parameters & metrics: measure definitions">
          <Definitions measures={measures} />
        </Section>
      )}
    </Stack>
  );
}
