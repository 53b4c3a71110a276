import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { memberKey, memberPath } from './get-member';
import { projectAdminKey } from './keys';

/** DELETE /api/projects/{id}/admin/members/{userId} -> 204: the account and its records stay. */
export async function removeMember(projectId: string, userId: string): Promise<void> {
  await apiFetch(memberPath(projectId, userId), { method: 'DELETE' });
}

export function useRemoveMember(projectId: string, userId: string) {
  const queryClient = useQueryClient();
  const removed = memberKey(projectId, userId);
  return useMutation({
    mutationFn: () => removeMember(projectId, userId),
    onSuccess: () => {
      // The removed member's own query is left alone while its page is still open (a refetch would answer 404
      // before the page moves on); everything else about the project loads again.
      void queryClient.invalidateQueries({
        queryKey: projectAdminKey(projectId),
        predicate: (query) => query.queryKey[2] !== removed[2] || query.queryKey[3] !== removed[3],
      });
      void queryClient.invalidateQueries({ queryKey: ['project', projectId] });
    },
  });
}
