import { type SuperUserRow, superUserListSchema } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { userSearchKey } from './keys';

export type { SuperUserRow };

export const USER_SEARCH_PAGE_SIZE = 20;

/** GET /super/users?q&page_size=20: the accounts the "Add member" picker offers. */
export async function searchUsers(q: string, signal?: AbortSignal): Promise<SuperUserRow[]> {
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  query.set('page_size', String(USER_SEARCH_PAGE_SIZE));
  const { users } = await apiFetch(`/super/users?${query}`, { signal, schema: superUserListSchema });
  return users;
}

export function userSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: userSearchKey(q),
    queryFn: ({ signal }) => searchUsers(q, signal),
    staleTime: 30_000,
  });
}

export function useUserSearch(q: string, enabled: boolean) {
  return useQuery({ ...userSearchQueryOptions(q), enabled, placeholderData: keepPreviousData });
}
