import { type SuperUserRow, superUserListSchema } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { searchOf } from './query-string';

export type { SuperUserRow };

/** GET /super/users?q=&page_size=20: the accounts a search matches, for picking an actor. */
export async function searchUsers(q: string, signal?: AbortSignal): Promise<SuperUserRow[]> {
  const { users } = await apiFetch(`/super/users?${searchOf({ q: q.trim(), page_size: 20 })}`, {
    signal,
    schema: superUserListSchema,
  });
  return users;
}

export function userSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: ['super', 'users', 'search', q.trim()] as const,
    queryFn: ({ signal }) => searchUsers(q, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUserSearch(q: string) {
  return useQuery(userSearchQueryOptions(q));
}
