import {
  type MonitoringMainRoleChange,
  type MonitoringPerson,
  monitoringPeopleSchema,
  monitoringPersonSchema,
} from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringPath } from './keys';
import { invalidateMonitoringPeople, monitoringPeopleKey } from './people-users';

export type { MonitoringMainRoleChange };

/** PUT .../users/{userId}/main-role {main_role|null} -> the person. 409 when it is the signed-in user. */
export function setMonitoringMainRole(projectId: string, change: MonitoringMainRoleChange): Promise<MonitoringPerson> {
  return apiFetch(`${monitoringPath(projectId)}/users/${change.user_id}/main-role`, {
    method: 'PUT',
    body: { main_role: change.main_role },
    schema: monitoringPersonSchema,
  });
}

/**
 * POST .../users/main-role/bulk {items} -> the monitoring users after. A 400 names the failing items as
 * `items.{index}` in `errors`; nothing is saved then.
 */
export async function setMonitoringMainRoles(
  projectId: string,
  items: MonitoringMainRoleChange[],
): Promise<MonitoringPerson[]> {
  const { users } = await apiFetch(`${monitoringPath(projectId)}/users/main-role/bulk`, {
    method: 'POST',
    body: { items },
    schema: monitoringPeopleSchema,
  });
  return users;
}

export function useSetMonitoringMainRoles(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (items: MonitoringMainRoleChange[]) => setMonitoringMainRoles(projectId, items),
    onSuccess: (users) => {
      queryClient.setQueryData(monitoringPeopleKey(projectId, 'assigned'), users);
      return invalidateMonitoringPeople(queryClient, projectId);
    },
  });
}
