import {
  type MonitoringRole,
  type MonitoringRoleInput,
  monitoringRoleDeletedSchema,
  monitoringRoleSchema,
  monitoringRolesSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { invalidatePeople, peopleRootKey } from '../../../lib/people';
import { monitoringPath } from './keys';

export type { MonitoringRole, MonitoringRoleInput };

export function monitoringRolesKey(projectId: string) {
  return [...peopleRootKey('monitoring', projectId), 'roles'] as const;
}

/** GET .../roles: the monitoring roles with their members and how many page grants name them. */
export async function getMonitoringRoles(projectId: string, signal?: AbortSignal): Promise<MonitoringRole[]> {
  const { roles } = await apiFetch(`${monitoringPath(projectId)}/roles`, { signal, schema: monitoringRolesSchema });
  return roles;
}

export function useMonitoringRoles(projectId: string) {
  return useQuery(apiQuery(monitoringRolesKey(projectId), (signal) => getMonitoringRoles(projectId, signal)));
}

/**
 * POST .../roles (no id) or PUT .../roles/{id}: {name, description, member_ids} -> the role. A 400 names the field:
 * `name` (empty, too long, or taken in the project in any case), `description`, `member_ids.{index}`.
 */
export function saveMonitoringRole(
  projectId: string,
  input: MonitoringRoleInput & { id?: number },
): Promise<MonitoringRole> {
  const { id, ...body } = input;
  return apiFetch(`${monitoringPath(projectId)}/roles${id === undefined ? '' : `/${id}`}`, {
    method: id === undefined ? 'POST' : 'PUT',
    body,
    schema: monitoringRoleSchema,
  });
}

/** DELETE .../roles/{id} -> how many page grants went with it. */
export function deleteMonitoringRole(projectId: string, id: number) {
  return apiFetch(`${monitoringPath(projectId)}/roles/${id}`, {
    method: 'DELETE',
    schema: monitoringRoleDeletedSchema,
  });
}

export function useSaveMonitoringRole(projectId: string) {
  return useApiMutation(
    (input: MonitoringRoleInput & { id?: number }) => saveMonitoringRole(projectId, input),
    (queryClient) => invalidatePeople(queryClient, 'monitoring', projectId),
  );
}

export function useDeleteMonitoringRole(projectId: string) {
  return useApiMutation(
    (id: number) => deleteMonitoringRole(projectId, id),
    (queryClient) => invalidatePeople(queryClient, 'monitoring', projectId),
  );
}
