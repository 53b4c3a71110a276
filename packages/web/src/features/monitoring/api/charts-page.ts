import { type Chart, type ChartCreate, type ChartList, chartListSchema, chartSchema } from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

export type { Chart, ChartCreate, ChartList };

/** Every chart query of a project: what adding, changing or removing a chart makes stale. */
export function chartsKey(projectId: string) {
  return [...monitoringKey(projectId), 'charts'] as const;
}

export function invalidateCharts(queryClient: QueryClient, projectId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: chartsKey(projectId) });
}

/** GET .../pages/{pageId}/charts: the page's charts in order, and whether the user may add and change them. */
export function getPageCharts(projectId: string, pageId: number, signal?: AbortSignal): Promise<ChartList> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/charts`, { signal, schema: chartListSchema });
}

export function pageChartsQueryOptions(projectId: string, pageId: number | null) {
  return queryOptions({
    queryKey: [...chartsKey(projectId), 'page', pageId] as const,
    queryFn: ({ signal }) => getPageCharts(projectId, pageId ?? 0, signal),
    enabled: pageId !== null,
  });
}

export function usePageCharts(projectId: string, pageId: number | null) {
  return useQuery(pageChartsQueryOptions(projectId, pageId));
}

/** POST .../pages/{pageId}/charts {measure_id, title, chart_type, options} -> the new chart (last on the page). */
export function createChart(projectId: string, pageId: number, input: ChartCreate): Promise<Chart> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/charts`, {
    method: 'POST',
    body: input,
    schema: chartSchema,
  });
}

export function useCreateChart(projectId: string, pageId: number) {
  return useInvalidatingMutation((input: ChartCreate) => createChart(projectId, pageId, input), [chartsKey(projectId)]);
}

/** DELETE .../charts/{chartId}: the chart goes; its measure and data stay. */
export async function deleteChart(projectId: string, chartId: number): Promise<void> {
  await apiFetch(`${monitoringPath(projectId)}/charts/${chartId}`, { method: 'DELETE' });
}

export function useDeleteChart(projectId: string) {
  return useInvalidatingMutation((chartId: number) => deleteChart(projectId, chartId), [chartsKey(projectId)]);
}
