import {
  type FormulaVersion,
  formulaVersionListSchema,
  type MeasureDetail,
  type MeasureUpdate,
  measureDetailSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { invalidateMonitoring, monitoringPath } from './keys';
import { measureKey, measuresKey } from './measures-list';

export type { FormulaVersion, MeasureDetail, MeasureUpdate };

/** GET .../measures/{id}: the measure with its targets, benchmarks, phases, annotations and abilities. */
export function getMeasure(projectId: string, measureId: number, signal?: AbortSignal): Promise<MeasureDetail> {
  return apiFetch(`${monitoringPath(projectId)}/measures/${measureId}`, { signal, schema: measureDetailSchema });
}

export function measureQueryOptions(projectId: string, measureId: number) {
  return apiQuery(measureKey(projectId, measureId), (signal) => getMeasure(projectId, measureId, signal));
}

export function useMeasure(projectId: string, measureId: number | null) {
  return useQuery({ ...measureQueryOptions(projectId, measureId ?? 0), enabled: measureId !== null });
}

/**
 * PUT .../measures/{id}: the changed fields with the version the edit started from (409 when someone saved in
 * between). A change of dataset or formulas records a formula version with `formula_note`, and `phase_start`
 * starts a phase there.
 */
export function updateMeasure(projectId: string, measureId: number, body: MeasureUpdate): Promise<MeasureDetail> {
  return apiFetch(`${monitoringPath(projectId)}/measures/${measureId}`, {
    method: 'PUT',
    body,
    schema: measureDetailSchema,
  });
}

export function useUpdateMeasure(projectId: string, measureId: number) {
  return useApiMutation(
    (body: MeasureUpdate) => updateMeasure(projectId, measureId, body),
    (queryClient, measure) => {
      queryClient.setQueryData(measureKey(projectId, measure.id), measure);
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}

/** DELETE .../measures/{id}: the measure and its charts. */
export async function deleteMeasure(projectId: string, measureId: number): Promise<void> {
  await apiFetch(`${monitoringPath(projectId)}/measures/${measureId}`, { method: 'DELETE' });
}

export function useDeleteMeasure(projectId: string) {
  return useApiMutation(
    (measureId: number) => deleteMeasure(projectId, measureId),
    (queryClient, _done, measureId) => {
      queryClient.removeQueries({ queryKey: measureKey(projectId, measureId) });
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}

/** GET .../measures/{id}/formula-versions: the definitions it has had, newest first. */
export async function getFormulaVersions(
  projectId: string,
  measureId: number,
  signal?: AbortSignal,
): Promise<FormulaVersion[]> {
  const { versions } = await apiFetch(`${monitoringPath(projectId)}/measures/${measureId}/formula-versions`, {
    signal,
    schema: formulaVersionListSchema,
  });
  return versions;
}

export function useFormulaVersions(projectId: string, measureId: number) {
  return useQuery({
    queryKey: [...measuresKey(projectId), 'versions', measureId] as const,
    queryFn: ({ signal }) => getFormulaVersions(projectId, measureId, signal),
  });
}
