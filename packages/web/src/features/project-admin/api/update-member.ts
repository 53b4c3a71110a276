import { type Member, type MemberUpdate, memberSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { memberKey, memberPath } from './get-member';
import { invalidateProject } from './keys';

export type { MemberUpdate };

/** PATCH /api/projects/{id}/admin/members/{userId} { project_role?, main_roles? }: 409 for the last project admin. */
export function updateMember(projectId: string, userId: string, update: MemberUpdate): Promise<Member> {
  return apiFetch(memberPath(projectId, userId), { method: 'PATCH', body: update, schema: memberSchema });
}

export function useUpdateMember(projectId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: MemberUpdate) => updateMember(projectId, userId, update),
    onSuccess: (member) => {
      queryClient.setQueryData(memberKey(projectId, userId), member);
      return invalidateProject(queryClient, projectId);
    },
  });
}
