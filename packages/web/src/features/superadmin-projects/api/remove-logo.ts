import { type SuperProjectDetail, superProjectDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { superProjectPath } from './keys';
import { storeProject } from './update-project';

/** DELETE /super/projects/{id}/logo: answers the project without its logo. */
export function removeSuperProjectLogo(id: string): Promise<SuperProjectDetail> {
  return apiFetch(`${superProjectPath(id)}/logo`, { method: 'DELETE', schema: superProjectDetailSchema });
}

export function useRemoveSuperProjectLogo(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => removeSuperProjectLogo(id),
    onSuccess: (project) => storeProject(queryClient, project),
  });
}
