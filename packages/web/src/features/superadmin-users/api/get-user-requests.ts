import { type UserRequest, userRequestListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { SUPER_USER_REQUESTS_KEY } from './keys';

export type { UserRequest };
export type UserRequestFilter = 'pending' | 'approved' | 'rejected' | 'all';
export const USER_REQUEST_FILTERS: readonly UserRequestFilter[] = ['pending', 'approved', 'rejected', 'all'];

/** GET /super/user-requests?status=pending|approved|rejected|all. */
export async function getUserRequests(status: UserRequestFilter, signal?: AbortSignal): Promise<UserRequest[]> {
  const { requests } = await apiFetch(`/super/user-requests?status=${status}`, {
    signal,
    schema: userRequestListSchema,
  });
  return requests;
}

export function userRequestsQueryOptions(status: UserRequestFilter) {
  return apiQuery([...SUPER_USER_REQUESTS_KEY, status] as const, (signal) => getUserRequests(status, signal));
}

export function useUserRequests(status: UserRequestFilter) {
  return useQuery(userRequestsQueryOptions(status));
}
