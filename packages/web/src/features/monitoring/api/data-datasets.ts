import {
  type Dataset,
  type DatasetCreate,
  type DatasetList,
  type DatasetUpdate,
  datasetListSchema,
  datasetSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation, useInvalidatingMutation } from '../../../lib/api-hooks';
import { invalidateMonitoring, monitoringKey, monitoringPath } from './keys';

export type { Dataset, DatasetCreate, DatasetList, DatasetUpdate };

/** Every dataset query of a project, its imports included (a commit changes the dataset's counts and dates). */
export function datasetsKey(projectId: string) {
  return [...monitoringKey(projectId), 'datasets'] as const;
}

export function datasetKey(projectId: string, datasetId: number) {
  return [...datasetsKey(projectId), datasetId] as const;
}

/** GET .../datasets: every dataset of the project with its counts, dates and abilities. */
export function getDatasets(projectId: string, signal?: AbortSignal): Promise<DatasetList> {
  return apiFetch(`${monitoringPath(projectId)}/datasets`, { signal, schema: datasetListSchema });
}

export function useDatasets(projectId: string) {
  return useQuery(apiQuery([...datasetsKey(projectId), 'list'], (signal) => getDatasets(projectId, signal)));
}

/** GET .../datasets/{id}: one dataset with its columns. */
export function getDataset(projectId: string, datasetId: number, signal?: AbortSignal): Promise<Dataset> {
  return apiFetch(`${monitoringPath(projectId)}/datasets/${datasetId}`, { signal, schema: datasetSchema });
}

export function useDataset(projectId: string, datasetId: number | null, placeholder?: Dataset) {
  return useQuery({
    queryKey: datasetKey(projectId, datasetId ?? 0),
    queryFn: ({ signal }) => getDataset(projectId, datasetId ?? 0, signal),
    enabled: datasetId !== null,
    placeholderData: placeholder,
  });
}

/** Where the browser downloads the active rows of a dataset (cells starting with = + - @ come escaped). */
export function datasetRowsUrl(projectId: string, datasetId: number): string {
  return `${monitoringPath(projectId)}/datasets/${datasetId}/rows.csv`;
}

/** POST .../datasets {name, description} -> the dataset (201); a 400 names the field. */
export function createDataset(projectId: string, body: DatasetCreate): Promise<Dataset> {
  return apiFetch(`${monitoringPath(projectId)}/datasets`, { method: 'POST', body, schema: datasetSchema });
}

/** PUT .../datasets/{id}: name, description; patient_level and retention_months by monitoring admins only. */
export function updateDataset(projectId: string, datasetId: number, body: DatasetUpdate): Promise<Dataset> {
  return apiFetch(`${monitoringPath(projectId)}/datasets/${datasetId}`, {
    method: 'PUT',
    body,
    schema: datasetSchema,
  });
}

/** DELETE .../datasets/{id} (204); 409 while a measure reads it. */
export async function deleteDataset(projectId: string, datasetId: number): Promise<void> {
  await apiFetch(`${monitoringPath(projectId)}/datasets/${datasetId}`, { method: 'DELETE' });
}

export function useCreateDataset(projectId: string) {
  return useInvalidatingMutation((body: DatasetCreate) => createDataset(projectId, body), [datasetsKey(projectId)]);
}

export function useUpdateDataset(projectId: string, datasetId: number) {
  return useApiMutation(
    (body: DatasetUpdate) => updateDataset(projectId, datasetId, body),
    (queryClient, dataset) => {
      queryClient.setQueryData(datasetKey(projectId, datasetId), dataset);
      // Measures and the formula builder name datasets too.
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}

export function useDeleteDataset(projectId: string) {
  return useApiMutation(
    (datasetId: number) => deleteDataset(projectId, datasetId),
    (queryClient, _, datasetId) => {
      queryClient.removeQueries({ queryKey: datasetKey(projectId, datasetId) });
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}
