import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { membersPath } from './get-members';
import { invalidateMemberCaches } from './invalidate-members';

/** DELETE /super/projects/{id}/members/{userId} -> 204 (409 for the last project admin). */
export async function removeProjectMember(projectId: string, userId: number): Promise<void> {
  await apiFetch(`${membersPath(projectId)}/${userId}`, { method: 'DELETE' });
}

export function useRemoveProjectMember(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => removeProjectMember(projectId, userId),
    onSuccess: () => invalidateMemberCaches(queryClient, projectId),
  });
}
