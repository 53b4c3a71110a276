import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { membersPath } from './get-members';
import { invalidateMemberCaches } from './invalidate-members';

/** DELETE /super/projects/{id}/members/{userId} -> 204 (409 for the last project admin). */
export async function removeProjectMember(projectId: string, userId: number): Promise<void> {
  await apiFetch(`${membersPath(projectId)}/${userId}`, { method: 'DELETE' });
}

export function useRemoveProjectMember(projectId: string) {
  return useApiMutation(
    (userId: number) => removeProjectMember(projectId, userId),
    (queryClient) => invalidateMemberCaches(queryClient, projectId),
  );
}
