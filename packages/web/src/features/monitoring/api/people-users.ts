import { type MonitoringPerson, monitoringPeopleSchema } from '@portal/shared';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringKey, monitoringPath } from './keys';

export type { MonitoringPerson };

/** `unassigned`: members who do not take part in monitoring; `assigned`: the monitoring users (main role or null). */
export type MonitoringPeopleList = 'unassigned' | 'assigned';

const LIST_PATHS: Record<MonitoringPeopleList, string> = { unassigned: 'users/unassigned', assigned: 'users' };

/** Every people query of a project (lists, dashboard, roles): what a change of users or main roles makes stale. */
export function monitoringPeopleRootKey(projectId: string) {
  return [...monitoringKey(projectId), 'people'] as const;
}

export function monitoringPeopleKey(projectId: string, list: MonitoringPeopleList) {
  return [...monitoringPeopleRootKey(projectId), 'users', list] as const;
}

/** GET .../monitoring/users/unassigned or .../monitoring/users. */
export async function getMonitoringPeople(
  projectId: string,
  list: MonitoringPeopleList,
  signal?: AbortSignal,
): Promise<MonitoringPerson[]> {
  const { users } = await apiFetch(`${monitoringPath(projectId)}/${LIST_PATHS[list]}`, {
    signal,
    schema: monitoringPeopleSchema,
  });
  return users;
}

export function monitoringPeopleQueryOptions(projectId: string, list: MonitoringPeopleList) {
  return queryOptions({
    queryKey: monitoringPeopleKey(projectId, list),
    queryFn: ({ signal }) => getMonitoringPeople(projectId, list, signal),
  });
}

export function useMonitoringPeople(projectId: string, list: MonitoringPeopleList) {
  return useQuery(monitoringPeopleQueryOptions(projectId, list));
}

/**
 * After a change of monitoring users, main roles or monitoring roles: every people query (lists, dashboard, roles,
 * page permissions) and the permission queries (a main role decides which sections a person may open).
 */
export function invalidateMonitoringPeople(queryClient: QueryClient, projectId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: monitoringPeopleRootKey(projectId) }),
    queryClient.invalidateQueries({ queryKey: ['permissions'] }),
  ]);
}

/** POST .../users/assign {user_ids}: adds these members to monitoring -> the monitoring users after. */
export async function assignMonitoringUsers(projectId: string, userIds: number[]): Promise<MonitoringPerson[]> {
  const { users } = await apiFetch(`${monitoringPath(projectId)}/users/assign`, {
    method: 'POST',
    body: { user_ids: userIds },
    schema: monitoringPeopleSchema,
  });
  return users;
}

/**
 * POST .../users/update {user_ids}: the WHOLE list of monitoring users; those left out lose their main role, their
 * monitoring roles and their page grants. 409 when it would remove the signed-in user.
 */
export async function updateMonitoringUsers(projectId: string, userIds: number[]): Promise<MonitoringPerson[]> {
  const { users } = await apiFetch(`${monitoringPath(projectId)}/users/update`, {
    method: 'POST',
    body: { user_ids: userIds },
    schema: monitoringPeopleSchema,
  });
  return users;
}

function useUsersMutation(
  projectId: string,
  send: (projectId: string, userIds: number[]) => Promise<MonitoringPerson[]>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userIds: number[]) => send(projectId, userIds),
    onSuccess: (users) => {
      queryClient.setQueryData(monitoringPeopleKey(projectId, 'assigned'), users);
      return invalidateMonitoringPeople(queryClient, projectId);
    },
  });
}

export function useAssignMonitoringUsers(projectId: string) {
  return useUsersMutation(projectId, assignMonitoringUsers);
}

export function useUpdateMonitoringUsers(projectId: string) {
  return useUsersMutation(projectId, updateMonitoringUsers);
}
