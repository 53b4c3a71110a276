import { type StdMember, type StdRole, stdMemberListSchema, stdMemberSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';

export type { StdMember, StdRole };

export function stdMembersKey(projectId: string) {
  return [...standardsKey(projectId), 'members'] as const;
}

/** GET /members: every project member with their stored and effective standards role. */
export function stdMembersQueryOptions(projectId: string) {
  return apiQuery(stdMembersKey(projectId), (signal) =>
    apiFetch(`${standardsPath(projectId)}/members`, { signal, schema: stdMemberListSchema }),
  );
}

export function useStdMembers(projectId: string) {
  return useQuery(stdMembersQueryOptions(projectId));
}

export interface StdRoleChange {
  userId: number;
  /** null takes the standards role away. */
  role: StdRole | null;
}

/** PUT /members/{userId} {role}: the member as saved. Lists of people (assignments, owners) go stale too. */
export function useSetStdRole(projectId: string) {
  return useApiMutation(
    ({ userId, role }: StdRoleChange) =>
      apiFetch(`${standardsPath(projectId)}/members/${userId}`, {
        method: 'PUT',
        body: { role },
        schema: stdMemberSchema,
      }),
    (queryClient, member) => {
      queryClient.setQueryData(stdMembersKey(projectId), (previous: { members: StdMember[] } | undefined) =>
        previous
          ? { members: previous.members.map((item) => (item.user_id === member.user_id ? member : item)) }
          : previous,
      );
      return queryClient.invalidateQueries({ queryKey: standardsKey(projectId) });
    },
  );
}
