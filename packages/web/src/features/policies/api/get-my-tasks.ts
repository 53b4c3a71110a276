import { type MyTasks, myTasksSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { policyKey, policyPath } from './keys';

export type { MyTasks };

export function myTasksKey(projectId: string) {
  return [...policyKey(projectId), 'my-tasks'] as const;
}

/** GET .../my-tasks: what waits for the signed-in user (to review, sign, read, sent back, reviews due). */
export function getMyTasks(projectId: string, signal?: AbortSignal): Promise<MyTasks> {
  return apiFetch(`${policyPath(projectId)}/my-tasks`, { signal, schema: myTasksSchema });
}

export function myTasksQueryOptions(projectId: string) {
  return queryOptions({ queryKey: myTasksKey(projectId), queryFn: ({ signal }) => getMyTasks(projectId, signal) });
}

export function useMyTasks(projectId: string) {
  return useQuery(myTasksQueryOptions(projectId));
}
