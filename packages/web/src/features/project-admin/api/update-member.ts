import { type Member, type MemberUpdate, memberSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { memberKey, memberPath } from './get-member';
import { invalidateProject } from './keys';

export type { MemberUpdate };

/** PATCH /api/projects/{id}/admin/members/{userId} { project_role?, main_roles? }: 409 for the last project admin. */
export function updateMember(projectId: string, userId: string, update: MemberUpdate): Promise<Member> {
  return apiFetch(memberPath(projectId, userId), { method: 'PATCH', body: update, schema: memberSchema });
}

export function useUpdateMember(projectId: string, userId: string) {
  return useApiMutation(
    (update: MemberUpdate) => updateMember(projectId, userId, update),
    (queryClient, member) => {
      queryClient.setQueryData(memberKey(projectId, userId), member);
      return invalidateProject(queryClient, projectId);
    },
  );
}
