import { type Member, type memberAddSchema, memberSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { membersPath } from './get-members';
import { invalidateMemberCaches } from './invalidate-members';

export type MemberAddBody = z.output<typeof memberAddSchema>;

/** POST /super/projects/{id}/members { user_id, project_role, main_roles } -> 201 the member. */
export function addProjectMember(projectId: string, body: MemberAddBody): Promise<Member> {
  return apiFetch(membersPath(projectId), { method: 'POST', body, schema: memberSchema });
}

export function useAddProjectMember(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberAddBody) => addProjectMember(projectId, body),
    onSuccess: () => invalidateMemberCaches(queryClient, projectId),
  });
}
