import { type Chart, type ChartUpdate, chartSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { chartsKey, invalidateCharts } from './charts-page';
import { monitoringPath } from './keys';

export type { ChartUpdate };

export function chartKey(projectId: string, chartId: number) {
  return [...chartsKey(projectId), 'chart', chartId] as const;
}

/** GET .../charts/{chartId}: one chart with its options (404 when it or its page is hidden or gone). */
export function getChart(projectId: string, chartId: number, signal?: AbortSignal): Promise<Chart> {
  return apiFetch(`${monitoringPath(projectId)}/charts/${chartId}`, { signal, schema: chartSchema });
}

export function useChart(projectId: string, chartId: number | null) {
  return useQuery({
    queryKey: chartKey(projectId, chartId ?? 0),
    queryFn: ({ signal }) => getChart(projectId, chartId ?? 0, signal),
    enabled: chartId !== null,
    // A stale save answers 409 on its own; refetching under the form would only surprise.
    refetchOnWindowFocus: false,
  });
}

/**
 * PUT .../charts/{chartId} {version, ...changes} -> the chart (409 STALE_CHART_MESSAGE when the version is stale).
 * `position` moves it among the page's charts.
 */
export function updateChart(projectId: string, chartId: number, input: ChartUpdate): Promise<Chart> {
  return apiFetch(`${monitoringPath(projectId)}/charts/${chartId}`, {
    method: 'PUT',
    body: input,
    schema: chartSchema,
  });
}

export function useUpdateChart(projectId: string) {
  return useApiMutation(
    ({ chartId, input }: { chartId: number; input: ChartUpdate }) => updateChart(projectId, chartId, input),
    (queryClient, chart) => {
      queryClient.setQueryData(chartKey(projectId, chart.id), chart);
      return invalidateCharts(queryClient, projectId);
    },
  );
}
