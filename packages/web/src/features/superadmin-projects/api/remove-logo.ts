import { type SuperProjectDetail, superProjectDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { superProjectPath } from './keys';
import { storeProject } from './update-project';

/** DELETE /super/projects/{id}/logo: answers the project without its logo. */
export function removeSuperProjectLogo(id: string): Promise<SuperProjectDetail> {
  return apiFetch(`${superProjectPath(id)}/logo`, { method: 'DELETE', schema: superProjectDetailSchema });
}

export function useRemoveSuperProjectLogo(id: string) {
  return useApiMutation(
    () => removeSuperProjectLogo(id),
    (queryClient, project) => storeProject(queryClient, project),
  );
}
