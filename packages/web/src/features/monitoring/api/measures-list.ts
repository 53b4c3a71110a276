import {
  type MeasureCreate,
  type MeasureDetail,
  type MeasureList,
  measureDetailSchema,
  measureListSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { invalidateMonitoring, monitoringKey, monitoringPath } from './keys';

export type { MeasureCreate, MeasureDetail, MeasureList };

/** Every measure query of a project (lists, details, versions, formula checks): what a measure change makes stale. */
export function measuresKey(projectId: string) {
  return [...monitoringKey(projectId), 'measures'] as const;
}

export function measureKey(projectId: string, measureId: number) {
  return [...measuresKey(projectId), 'measure', measureId] as const;
}

/** GET .../pages/{pageId}/measures: the page's measures and whether the user may add and change them. */
export function getPageMeasures(projectId: string, pageId: number, signal?: AbortSignal): Promise<MeasureList> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/measures`, { signal, schema: measureListSchema });
}

export function pageMeasuresQueryOptions(projectId: string, pageId: number) {
  return apiQuery([...measuresKey(projectId), 'page', pageId] as const, (signal) =>
    getPageMeasures(projectId, pageId, signal),
  );
}

export function usePageMeasures(projectId: string, pageId: number | null) {
  return useQuery({ ...pageMeasuresQueryOptions(projectId, pageId ?? 0), enabled: pageId !== null });
}

/**
 * POST .../pages/{pageId}/measures -> the new measure. Formulas that do not fit the dataset answer 400 with the
 * message of each formula under errors.{numerator|denominator|value_expr}.
 */
export function createMeasure(projectId: string, pageId: number, body: MeasureCreate): Promise<MeasureDetail> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/measures`, {
    method: 'POST',
    body,
    schema: measureDetailSchema,
  });
}

export function useCreateMeasure(projectId: string, pageId: number) {
  return useApiMutation(
    (body: MeasureCreate) => createMeasure(projectId, pageId, body),
    (queryClient, measure) => {
      queryClient.setQueryData(measureKey(projectId, measure.id), measure);
      // Page views, summaries and chart pickers list measures too.
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}
