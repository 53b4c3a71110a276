import { type Member, type memberAddSchema, memberSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { membersPath } from './get-members';
import { invalidateMemberCaches } from './invalidate-members';

export type MemberAddBody = z.output<typeof memberAddSchema>;

/** POST /super/projects/{id}/members { user_id, project_role, main_roles } -> 201 the member. */
export function addProjectMember(projectId: string, body: MemberAddBody): Promise<Member> {
  return apiFetch(membersPath(projectId), { method: 'POST', body, schema: memberSchema });
}

export function useAddProjectMember(projectId: string) {
  return useApiMutation(
    (body: MemberAddBody) => addProjectMember(projectId, body),
    (queryClient) => invalidateMemberCaches(queryClient, projectId),
  );
}
