import { type SuperProjectDetail, superProjectDetailSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { projectDetailKey, superProjectPath } from './keys';

export type { SuperProjectDetail };

/** GET /super/projects/{id} (404 when there is no such project). */
export function getSuperProject(id: string, signal?: AbortSignal): Promise<SuperProjectDetail> {
  return apiFetch(superProjectPath(id), { signal, schema: superProjectDetailSchema });
}

export function superProjectQueryOptions(id: string) {
  return queryOptions({
    queryKey: projectDetailKey(id),
    queryFn: ({ signal }) => getSuperProject(id, signal),
  });
}

export function useSuperProject(id: string) {
  return useQuery(superProjectQueryOptions(id));
}
