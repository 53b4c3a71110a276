import { type Member, type MemberUpdate, memberSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { membersPath } from './get-members';
import { invalidateMemberCaches, mergeMember } from './invalidate-members';

/** PATCH /super/projects/{id}/members/{userId}: project role and main roles (409 for the last project admin). */
export function updateProjectMember(projectId: string, userId: number, body: MemberUpdate): Promise<Member> {
  return apiFetch(`${membersPath(projectId)}/${userId}`, { method: 'PATCH', body, schema: memberSchema });
}

export function useUpdateProjectMember(projectId: string) {
  return useApiMutation(
    ({ userId, body }: { userId: number; body: MemberUpdate }) => updateProjectMember(projectId, userId, body),
    (queryClient, member) => {
      mergeMember(queryClient, projectId, member);
      return invalidateMemberCaches(queryClient, projectId);
    },
  );
}
