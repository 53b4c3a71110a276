import { type MainRoleBulk, type PolicyPerson, policyPeopleSchema, policyPersonSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { invalidatePolicyPeople, policyPeopleKey } from './get-policy-people';
import { policyPath } from './keys';

export type MainRoleChange = MainRoleBulk['items'][number];

/** PUT .../pol-man-users/{userId}/main-role {main_role|null} -> the person. 409 when it is the signed-in user. */
export function setMainRole(projectId: string, change: MainRoleChange): Promise<PolicyPerson> {
  return apiFetch(`${policyPath(projectId)}/pol-man-users/${change.user_id}/main-role`, {
    method: 'PUT',
    body: { main_role: change.main_role },
    schema: policyPersonSchema,
  });
}

/**
 * POST .../pol-man-users/main-role/bulk {items} -> the policy users with a main role after. A 400 names the
 * failing items as `items.{index}` in `errors`.
 */
export async function setMainRoles(projectId: string, items: MainRoleChange[]): Promise<PolicyPerson[]> {
  const { users } = await apiFetch(`${policyPath(projectId)}/pol-man-users/main-role/bulk`, {
    method: 'POST',
    body: { items },
    schema: policyPeopleSchema,
  });
  return users;
}

export function useSetMainRole(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: MainRoleChange) => setMainRole(projectId, change),
    onSuccess: () => invalidatePolicyPeople(queryClient, projectId),
  });
}

export function useSetMainRoles(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (items: MainRoleChange[]) => setMainRoles(projectId, items),
    onSuccess: (users) => {
      queryClient.setQueryData(policyPeopleKey(projectId, 'assigned-main-role'), users);
      return invalidatePolicyPeople(queryClient, projectId);
    },
  });
}
