import { type CurrentUser, currentUserSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export type { CurrentUser };

export const CURRENT_USER_PATH = '/api/user';
export const CURRENT_USER_KEY = ['user', 'current'] as const;

/** GET /api/user: the signed-in user's account (names, email, two-factor). */
export function getCurrentUser(signal?: AbortSignal): Promise<CurrentUser> {
  return apiFetch(CURRENT_USER_PATH, { signal, schema: currentUserSchema });
}

export function currentUserQueryOptions() {
  return queryOptions({ queryKey: CURRENT_USER_KEY, queryFn: ({ signal }) => getCurrentUser(signal) });
}

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}
