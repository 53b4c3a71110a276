import {
  type MonitoringUserRequestCreate,
  type UserRequest,
  userRequestListSchema,
  userRequestSchema,
} from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringKey, monitoringPath } from './keys';

export type { UserRequest };

const path = (projectId: string) => `${monitoringPath(projectId)}/user-requests`;

export function monitoringUserRequestsKey(projectId: string) {
  return [...monitoringKey(projectId), 'user-requests'] as const;
}

/** GET .../user-requests: this project's new-user requests that ask for a monitoring main role, newest first. */
export async function getMonitoringUserRequests(projectId: string, signal?: AbortSignal): Promise<UserRequest[]> {
  const { requests } = await apiFetch(path(projectId), { signal, schema: userRequestListSchema });
  return requests;
}

export function useMonitoringUserRequests(projectId: string) {
  return useQuery(
    queryOptions({
      queryKey: monitoringUserRequestsKey(projectId),
      queryFn: ({ signal }) => getMonitoringUserRequests(projectId, signal),
    }),
  );
}

/**
 * POST .../user-requests {first_name, last_name, email, main_role, justification} -> 201: the superadmins are asked
 * for the account. 409 when the email belongs to a member already or has a pending request.
 */
export function createMonitoringUserRequest(
  projectId: string,
  request: MonitoringUserRequestCreate,
): Promise<UserRequest> {
  return apiFetch(path(projectId), { method: 'POST', body: request, schema: userRequestSchema });
}

export function useCreateMonitoringUserRequest(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: MonitoringUserRequestCreate) => createMonitoringUserRequest(projectId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitoringUserRequestsKey(projectId) }),
  });
}
