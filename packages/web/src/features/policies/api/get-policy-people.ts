import { type PolicyPerson, policyPeopleSchema } from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { policyKey, policyPath } from './keys';

export type { PolicyPerson };

/**
 * The people lists of policy management:
 * - `unassigned`: project members who do not take part in policy management;
 * - `assigned`: the policy users (main_role null while they have none);
 * - `unassigned-main-role` / `assigned-main-role`: the policy users without / with a main role.
 */
export const POLICY_PEOPLE_LISTS = ['unassigned', 'assigned', 'unassigned-main-role', 'assigned-main-role'] as const;
export type PolicyPeopleList = (typeof POLICY_PEOPLE_LISTS)[number];

const LIST_PATHS: Record<PolicyPeopleList, string> = {
  unassigned: 'eligible-users/unassigned',
  assigned: 'eligible-users/assigned',
  'unassigned-main-role': 'pol-man-users/unassigned-main-role',
  'assigned-main-role': 'pol-man-users/assigned-main-role',
};

/** Every people list of a project: what a change of policy users or main roles makes stale. */
export function policyPeopleRootKey(projectId: string) {
  return [...policyKey(projectId), 'people'] as const;
}

export function policyPeopleKey(projectId: string, list: PolicyPeopleList) {
  return [...policyPeopleRootKey(projectId), list] as const;
}

/** GET .../eligible-users/{unassigned|assigned} or .../pol-man-users/{unassigned|assigned}-main-role. */
export async function getPolicyPeople(
  projectId: string,
  list: PolicyPeopleList,
  signal?: AbortSignal,
): Promise<PolicyPerson[]> {
  const { users } = await apiFetch(`${policyPath(projectId)}/${LIST_PATHS[list]}`, {
    signal,
    schema: policyPeopleSchema,
  });
  return users;
}

export function policyPeopleQueryOptions(projectId: string, list: PolicyPeopleList) {
  return queryOptions({
    queryKey: policyPeopleKey(projectId, list),
    queryFn: ({ signal }) => getPolicyPeople(projectId, list, signal),
  });
}

export function usePolicyPeople(projectId: string, list: PolicyPeopleList) {
  return useQuery(policyPeopleQueryOptions(projectId, list));
}

/**
 * After a change of policy users or main roles: every people list, and the permission queries (a person's main
 * role decides which sections they may open, the signed-in user's own included).
 */
export function invalidatePolicyPeople(queryClient: QueryClient, projectId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: policyPeopleRootKey(projectId) }),
    queryClient.invalidateQueries({ queryKey: ['permissions'] }),
  ]);
}
