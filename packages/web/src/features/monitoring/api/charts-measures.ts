import { type Measure, type MeasureList, measureListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { chartsKey } from './charts-page';
import { monitoringPath } from './keys';

export type { Measure, MeasureList };

/** GET .../pages/{pageId}/measures: the measures a chart of the page may draw (the chart editor's picker). */
export function getChartMeasures(projectId: string, pageId: number, signal?: AbortSignal): Promise<MeasureList> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/measures`, { signal, schema: measureListSchema });
}

export function useChartMeasures(projectId: string, pageId: number | null) {
  return useQuery({
    queryKey: [...chartsKey(projectId), 'measures', pageId] as const,
    queryFn: ({ signal }) => getChartMeasures(projectId, pageId ?? 0, signal),
    enabled: pageId !== null,
  });
}
