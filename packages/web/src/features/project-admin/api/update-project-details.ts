import { type ProjectDetails, projectDetailsSchema, type projectDetailsUpdateSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { projectDetailsKey } from './get-project-details';
import { adminPath, invalidateProject } from './keys';

export type ProjectDetailsUpdate = z.input<typeof projectDetailsUpdateSchema>;

/** PATCH /api/projects/{id}/admin/details with the changed fields only. */
export function updateProjectDetails(projectId: string, update: ProjectDetailsUpdate): Promise<ProjectDetails> {
  return apiFetch(`${adminPath(projectId)}/details`, { method: 'PATCH', body: update, schema: projectDetailsSchema });
}

export function useUpdateProjectDetails(projectId: string) {
  return useApiMutation(
    (update: ProjectDetailsUpdate) => updateProjectDetails(projectId, update),
    (queryClient, details) => {
      queryClient.setQueryData(projectDetailsKey(projectId), details);
      return invalidateProject(queryClient, projectId);
    },
  );
}
