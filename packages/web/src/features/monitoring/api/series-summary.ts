import { type MeasureSummary, measureSummaryListSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringKey, monitoringPath } from './keys';

export type { MeasureSummary };

/** GET .../pages/{pageId}/measure-summary: one line per measure of the page (latest value, n, readings, sparkline). */
export async function getMeasureSummary(
  projectId: string,
  pageId: number,
  signal?: AbortSignal,
): Promise<MeasureSummary[]> {
  const { measures } = await apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/measure-summary`, {
    signal,
    schema: measureSummaryListSchema,
  });
  return measures;
}

export function measureSummaryQueryOptions(projectId: string, pageId: number) {
  return queryOptions({
    queryKey: [...monitoringKey(projectId), 'measure-summary', pageId] as const,
    queryFn: ({ signal }) => getMeasureSummary(projectId, pageId, signal),
  });
}

export function useMeasureSummary(projectId: string, pageId: number) {
  return useQuery(measureSummaryQueryOptions(projectId, pageId));
}
