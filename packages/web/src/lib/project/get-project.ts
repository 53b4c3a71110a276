import { type Project, projectSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api';

/** GET /api/projects/{id}, or /super/projects/{id} for a superadmin. 404 when the user cannot see the project. */
export function getProject(id: string, superadmin: boolean, signal?: AbortSignal): Promise<Project> {
  const path = superadmin ? `/super/projects/${id}` : `/api/projects/${id}`;
  return apiFetch(path, { signal, schema: projectSchema });
}

export function projectQueryOptions(id: string, superadmin: boolean) {
  return queryOptions({
    queryKey: ['project', id, superadmin ? 'super' : 'member'],
    queryFn: ({ signal }) => getProject(id, superadmin, signal),
    staleTime: 60_000,
  });
}

export function useProject(id: string | null, superadmin: boolean) {
  return useQuery({ ...projectQueryOptions(id ?? '0', superadmin), enabled: id !== null });
}
