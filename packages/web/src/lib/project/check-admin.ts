import { checkAdminSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api';

/** GET /api/projects/{id}/check-admin: whether the user administers the project. */
export async function checkAdmin(id: string, signal?: AbortSignal): Promise<boolean> {
  const { is_admin } = await apiFetch(`/api/projects/${id}/check-admin`, { signal, schema: checkAdminSchema });
  return is_admin;
}

export function checkAdminQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['project', id, 'check-admin'],
    queryFn: ({ signal }) => checkAdmin(id, signal),
    staleTime: 60_000,
  });
}

/** Superadmins administer every project without asking the server. */
export function useIsProjectAdmin(id: string | null, superadmin: boolean) {
  const query = useQuery({ ...checkAdminQueryOptions(id ?? '0'), enabled: id !== null && !superadmin });
  if (superadmin) return true;
  return id !== null && query.data === true;
}
