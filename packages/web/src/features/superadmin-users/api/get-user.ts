import { type SuperUserDetail, superUserDetailSchema } from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { SUPER_DASHBOARD_KEY, SUPER_USERS_KEY, superUserPath } from './keys';

export type { SuperUserDetail };

export const superUserKey = (id: number | string) => [...SUPER_USERS_KEY, 'detail', String(id)] as const;

/** GET /super/users/{id}: one user with their memberships. */
export function getUser(id: string, signal?: AbortSignal): Promise<SuperUserDetail> {
  return apiFetch(superUserPath(id), { signal, schema: superUserDetailSchema });
}

export function userQueryOptions(id: string) {
  return queryOptions({ queryKey: superUserKey(id), queryFn: ({ signal }) => getUser(id, signal) });
}

export function useUser(id: string) {
  return useQuery(userQueryOptions(id));
}

/** After a change: the detail shows the answer at once, every list loads again. */
export function storeUser(queryClient: QueryClient, user: SuperUserDetail): void {
  queryClient.setQueryData(superUserKey(user.id), user);
  void queryClient.invalidateQueries({ queryKey: [...SUPER_USERS_KEY, 'list'] });
  void queryClient.invalidateQueries({ queryKey: SUPER_DASHBOARD_KEY });
}
