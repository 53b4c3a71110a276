import { type SuperProjectDetail, superProjectDetailSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { projectDetailKey, superProjectPath } from './keys';

export type { SuperProjectDetail };

/** GET /super/projects/{id} (404 when there is no such project). */
export function getSuperProject(id: string, signal?: AbortSignal): Promise<SuperProjectDetail> {
  return apiFetch(superProjectPath(id), { signal, schema: superProjectDetailSchema });
}

export function superProjectQueryOptions(id: string) {
  return apiQuery(projectDetailKey(id), (signal) => getSuperProject(id, signal));
}

export function useSuperProject(id: string) {
  return useQuery(superProjectQueryOptions(id));
}
