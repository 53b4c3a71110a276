import type { Member } from '@portal/shared';
import type { QueryClient } from '@tanstack/react-query';
import type { MemberList } from './get-members';
import { invalidateProjectCaches, projectDetailKey, projectMembersKey, USER_SEARCH_KEY } from './keys';

/** Puts the server's answer for one member into the cached list at once. */
export function mergeMember(queryClient: QueryClient, projectId: string, member: Member): void {
  queryClient.setQueryData<MemberList>(projectMembersKey(projectId), (list) =>
    list ? { members: list.members.map((item) => (item.user_id === member.user_id ? member : item)) } : list,
  );
}

/** A change of membership: the members, the member count (detail and list) and the user picker load again. */
export function invalidateMemberCaches(queryClient: QueryClient, projectId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: projectMembersKey(projectId) }),
    queryClient.invalidateQueries({ queryKey: projectDetailKey(projectId) }),
    queryClient.invalidateQueries({ queryKey: USER_SEARCH_KEY }),
    invalidateProjectCaches(queryClient, projectId),
  ]);
}
