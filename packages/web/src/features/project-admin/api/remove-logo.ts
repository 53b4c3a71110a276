import { type ProjectDetails, projectDetailsSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { projectDetailsKey } from './get-project-details';
import { adminPath, invalidateProject } from './keys';

/** DELETE /api/projects/{id}/admin/logo: answers the details without a logo. */
export function removeLogo(projectId: string): Promise<ProjectDetails> {
  return apiFetch(`${adminPath(projectId)}/logo`, { method: 'DELETE', schema: projectDetailsSchema });
}

export function useRemoveLogo(projectId: string) {
  return useApiMutation(
    () => removeLogo(projectId),
    (queryClient, details) => {
      queryClient.setQueryData(projectDetailsKey(projectId), details);
      return invalidateProject(queryClient, projectId);
    },
  );
}
