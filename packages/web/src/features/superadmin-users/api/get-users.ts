import { type SuperUserRow, superUserListSchema } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { SUPER_USERS_KEY } from './keys';

export type { SuperUserRow };
export type SuperUserList = z.infer<typeof superUserListSchema>;
export type UserStatusFilter = 'active' | 'invited' | 'disabled' | 'locked';
export type UserRoleFilter = 'superadmin' | 'user';

export const USERS_PAGE_SIZE = 25;

export interface UserListFilters {
  q: string;
  role: UserRoleFilter | null;
  status: UserStatusFilter | null;
  project: number | null;
  page: number;
}

/** The query string of GET /super/users: empty filters are left out. */
export function userListQuery(filters: UserListFilters): string {
  const query = new URLSearchParams();
  if (filters.q.trim()) query.set('q', filters.q.trim());
  if (filters.role) query.set('role', filters.role);
  if (filters.status) query.set('status', filters.status);
  if (filters.project) query.set('project', String(filters.project));
  query.set('page', String(filters.page));
  query.set('page_size', String(USERS_PAGE_SIZE));
  return query.toString();
}

/** GET /super/users?q&role&status&project&page&page_size. */
export function getUsers(filters: UserListFilters, signal?: AbortSignal): Promise<SuperUserList> {
  return apiFetch(`/super/users?${userListQuery(filters)}`, { signal, schema: superUserListSchema });
}

export function usersQueryOptions(filters: UserListFilters) {
  return queryOptions({
    queryKey: [...SUPER_USERS_KEY, 'list', filters] as const,
    queryFn: ({ signal }) => getUsers(filters, signal),
    // The table keeps the previous page while the next one loads: no jump to skeletons between pages.
    placeholderData: keepPreviousData,
  });
}

export function useUsers(filters: UserListFilters) {
  return useQuery(usersQueryOptions(filters));
}
