import { type Member, type MemberUpdate, memberSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { membersPath } from './get-members';
import { invalidateMemberCaches, mergeMember } from './invalidate-members';

/** PATCH /super/projects/{id}/members/{userId}: project role and main roles (409 for the last project admin). */
export function updateProjectMember(projectId: string, userId: number, body: MemberUpdate): Promise<Member> {
  return apiFetch(`${membersPath(projectId)}/${userId}`, { method: 'PATCH', body, schema: memberSchema });
}

export function useUpdateProjectMember(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: number; body: MemberUpdate }) =>
      updateProjectMember(projectId, userId, body),
    onSuccess: (member) => {
      mergeMember(queryClient, projectId, member);
      return invalidateMemberCaches(queryClient, projectId);
    },
  });
}
