import { type AppCode, activeAppsSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api';

/** GET /api/projects/{id}/active-apps: the app codes the project has switched on. */
export function getActiveApps(id: string, signal?: AbortSignal): Promise<AppCode[]> {
  return apiFetch(`/api/projects/${id}/active-apps`, { signal, schema: activeAppsSchema });
}

export function activeAppsQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['project', id, 'active-apps'],
    queryFn: ({ signal }) => getActiveApps(id, signal),
    staleTime: 60_000,
  });
}

export function useActiveApps(id: string | null) {
  return useQuery({ ...activeAppsQueryOptions(id ?? '0'), enabled: id !== null });
}
