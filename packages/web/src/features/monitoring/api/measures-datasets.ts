import { type Dataset, type DatasetColumn, datasetListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringKey, monitoringPath } from './keys';

export type { Dataset, DatasetColumn };

/** GET .../datasets, for the formula builder's dataset picker and its column suggestions. */
export async function getDatasetsForMeasures(projectId: string, signal?: AbortSignal): Promise<Dataset[]> {
  const { datasets } = await apiFetch(`${monitoringPath(projectId)}/datasets`, { signal, schema: datasetListSchema });
  return datasets;
}

export function useMeasureDatasets(projectId: string) {
  return useQuery({
    // Under the project's datasets prefix, so an import or a dataset change refreshes it too.
    queryKey: [...monitoringKey(projectId), 'datasets', 'for-measures'] as const,
    queryFn: ({ signal }) => getDatasetsForMeasures(projectId, signal),
  });
}
