import { type UserRequest, userRequestListSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { policyKey, policyPath } from './keys';

export type { UserRequest };

export function policyUserRequestsPath(projectId: string): string {
  return `${policyPath(projectId)}/user-requests`;
}

export function policyUserRequestsKey(projectId: string) {
  return [...policyKey(projectId), 'user-requests'] as const;
}

/** GET .../user-requests: this project's new-user requests that ask for a policy main role, newest first. */
export async function getPolicyUserRequests(projectId: string, signal?: AbortSignal): Promise<UserRequest[]> {
  const { requests } = await apiFetch(policyUserRequestsPath(projectId), { signal, schema: userRequestListSchema });
  return requests;
}

export function policyUserRequestsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: policyUserRequestsKey(projectId),
    queryFn: ({ signal }) => getPolicyUserRequests(projectId, signal),
  });
}

export function usePolicyUserRequests(projectId: string) {
  return useQuery(policyUserRequestsQueryOptions(projectId));
}
