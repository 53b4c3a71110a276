import {
  type DataRequestDetail,
  type DataRequestRow,
  dataRequestDetailSchema,
  dataRequestListSchema,
  dataRequestStewardsSchema,
} from '@portal/shared';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

export type { DataRequestDetail, DataRequestRow };
export type RequestScope = 'mine' | 'queue';

/** Every data-request query of a project: what a change to a request makes stale. */
export function requestsKey(projectId: string) {
  return [...monitoringKey(projectId), 'requests'] as const;
}

export function invalidateRequests(queryClient: QueryClient, projectId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: requestsKey(projectId) });
}

/** GET .../requests?scope=mine|queue: the user's requests, or (data stewards) every request of the project. */
export async function getRequests(projectId: string, scope: RequestScope, signal?: AbortSignal) {
  const { requests } = await apiFetch(`${monitoringPath(projectId)}/requests?scope=${scope}`, {
    signal,
    schema: dataRequestListSchema,
  });
  return requests;
}

export function useRequests(projectId: string, scope: RequestScope, enabled = true) {
  return useQuery({
    queryKey: [...requestsKey(projectId), 'list', scope] as const,
    queryFn: ({ signal }) => getRequests(projectId, scope, signal),
    enabled,
  });
}

/** GET .../requests/{id}: the request with its comments and what the user may do (404 for anyone else's). */
export function getRequest(projectId: string, requestId: number, signal?: AbortSignal): Promise<DataRequestDetail> {
  return apiFetch(`${monitoringPath(projectId)}/requests/${requestId}`, { signal, schema: dataRequestDetailSchema });
}

export function requestKey(projectId: string, requestId: number) {
  return [...requestsKey(projectId), 'request', requestId] as const;
}

export function requestQueryOptions(projectId: string, requestId: number) {
  return apiQuery(requestKey(projectId, requestId), (signal) => getRequest(projectId, requestId, signal));
}

export function useRequest(projectId: string, requestId: number | null) {
  return useQuery({ ...requestQueryOptions(projectId, requestId ?? 0), enabled: requestId !== null });
}

/** GET .../requests/stewards: the data stewards, who may be assigned a request (stewards only). */
export function useRequestStewards(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...requestsKey(projectId), 'stewards'] as const,
    queryFn: async ({ signal }) =>
      (await apiFetch(`${monitoringPath(projectId)}/requests/stewards`, { signal, schema: dataRequestStewardsSchema }))
        .people,
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** Where the delivered file of a request downloads from (a plain link: same-origin cookies). */
export const requestFilePath = (projectId: string, requestId: number) =>
  `${monitoringPath(projectId)}/requests/${requestId}/file`;
