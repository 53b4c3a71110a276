import { type SuperProjectDetail, type SuperProjectUpdate, superProjectDetailSchema } from '@portal/shared';
import type { QueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { invalidateProjectCaches, projectDetailKey, superProjectPath } from './keys';

/** PATCH /super/projects/{id}: only the fields sent change; `is_active: false` deactivates (nothing is deleted). */
export function updateSuperProject(id: string, body: SuperProjectUpdate): Promise<SuperProjectDetail> {
  return apiFetch(superProjectPath(id), { method: 'PATCH', body, schema: superProjectDetailSchema });
}

/** Shows the server's answer at once and has the lists and the portal's other views of the project reload. */
export function storeProject(queryClient: QueryClient, project: SuperProjectDetail): Promise<unknown> {
  queryClient.setQueryData(projectDetailKey(String(project.id)), project);
  return invalidateProjectCaches(queryClient, project.id);
}

export function useUpdateSuperProject(id: string) {
  return useApiMutation(
    (body: SuperProjectUpdate) => updateSuperProject(id, body),
    (queryClient, project) => storeProject(queryClient, project),
  );
}
