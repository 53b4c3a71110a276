import { type ProjectDetails, projectDetailsSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { projectDetailsKey } from './get-project-details';
import { adminPath, invalidateProject } from './keys';

/** DELETE /api/projects/{id}/admin/logo: answers the details without a logo. */
export function removeLogo(projectId: string): Promise<ProjectDetails> {
  return apiFetch(`${adminPath(projectId)}/logo`, { method: 'DELETE', schema: projectDetailsSchema });
}

export function useRemoveLogo(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => removeLogo(projectId),
    onSuccess: (details) => {
      queryClient.setQueryData(projectDetailsKey(projectId), details);
      return invalidateProject(queryClient, projectId);
    },
  });
}
