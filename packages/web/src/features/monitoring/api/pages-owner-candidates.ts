import { pageOwnerCandidatesSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

/** GET .../pages/owner-candidates: the monitoring users who may own a page. */
export async function getPageOwnerCandidates(
  projectId: string,
  signal?: AbortSignal,
): Promise<{ id: number; name: string }[]> {
  const { people } = await apiFetch(`${monitoringPath(projectId)}/pages/owner-candidates`, {
    signal,
    schema: pageOwnerCandidatesSchema,
  });
  return people;
}

export function pageOwnerCandidatesQueryOptions(projectId: string) {
  return apiQuery([...monitoringKey(projectId), 'owner-candidates'] as const, (signal) =>
    getPageOwnerCandidates(projectId, signal),
  );
}

export function usePageOwnerCandidates(projectId: string) {
  return useQuery(pageOwnerCandidatesQueryOptions(projectId));
}
