import { type MyApp, myAppsSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api';

/**
 * GET /api/projects/{id}/my-apps: the project's active apps, whether the signed-in user can open each, and why not
 * (issue 32). The project page and the navigation share it (one request, one key).
 */
export async function getMyApps(id: string, signal?: AbortSignal): Promise<MyApp[]> {
  const { apps } = await apiFetch(`/api/projects/${id}/my-apps`, { signal, schema: myAppsSchema });
  return apps;
}

export function myAppsQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['project', id, 'my-apps'],
    queryFn: ({ signal }) => getMyApps(id, signal),
    staleTime: 60_000,
  });
}

/** Null id: no call (no project yet, or a superadmin, who can open every app). */
export function useMyApps(id: string | null) {
  return useQuery({ ...myAppsQueryOptions(id ?? '0'), enabled: id !== null });
}
