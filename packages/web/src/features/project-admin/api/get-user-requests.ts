import { type UserRequest, userRequestListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { adminPath, projectAdminKey } from './keys';

export type { UserRequest };

export function userRequestsPath(projectId: string): string {
  return `${adminPath(projectId)}/user-requests`;
}

export function userRequestsKey(projectId: string) {
  return [...projectAdminKey(projectId), 'user-requests'] as const;
}

/** GET /api/projects/{id}/admin/user-requests: this project's new-user requests and their status. */
export async function getUserRequests(projectId: string, signal?: AbortSignal): Promise<UserRequest[]> {
  const { requests } = await apiFetch(userRequestsPath(projectId), { signal, schema: userRequestListSchema });
  return requests;
}

export function userRequestsQueryOptions(projectId: string) {
  return apiQuery(userRequestsKey(projectId), (signal) => getUserRequests(projectId, signal));
}

export function useUserRequests(projectId: string) {
  return useQuery(userRequestsQueryOptions(projectId));
}
