import { type PolicyPerson, policyPeopleSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { invalidatePolicyPeople, policyPeopleKey } from './get-policy-people';
import { policyPath } from './keys';

/** POST .../policy-users/assign {user_ids}: adds these members to policy management -> the policy users after. */
export async function assignPolicyUsers(projectId: string, userIds: number[]): Promise<PolicyPerson[]> {
  const { users } = await apiFetch(`${policyPath(projectId)}/policy-users/assign`, {
    method: 'POST',
    body: { user_ids: userIds },
    schema: policyPeopleSchema,
  });
  return users;
}

/**
 * POST .../policy-users/update {user_ids}: the WHOLE list of policy users; members left out stop taking part and
 * lose their policy role. 409 when it would remove the signed-in user.
 */
export async function updatePolicyUsers(projectId: string, userIds: number[]): Promise<PolicyPerson[]> {
  const { users } = await apiFetch(`${policyPath(projectId)}/policy-users/update`, {
    method: 'POST',
    body: { user_ids: userIds },
    schema: policyPeopleSchema,
  });
  return users;
}

function usePolicyUsersMutation(
  projectId: string,
  send: (projectId: string, userIds: number[]) => Promise<PolicyPerson[]>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userIds: number[]) => send(projectId, userIds),
    onSuccess: (users) => {
      queryClient.setQueryData(policyPeopleKey(projectId, 'assigned'), users);
      return invalidatePolicyPeople(queryClient, projectId);
    },
  });
}

export function useAssignPolicyUsers(projectId: string) {
  return usePolicyUsersMutation(projectId, assignPolicyUsers);
}

export function useUpdatePolicyUsers(projectId: string) {
  return usePolicyUsersMutation(projectId, updatePolicyUsers);
}
