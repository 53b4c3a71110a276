import { type ProjectDetails, projectDetailsSchema, type projectDetailsUpdateSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { projectDetailsKey } from './get-project-details';
import { adminPath, invalidateProject } from './keys';

export type ProjectDetailsUpdate = z.input<typeof projectDetailsUpdateSchema>;

/** PATCH /api/projects/{id}/admin/details with the changed fields only. */
export function updateProjectDetails(projectId: string, update: ProjectDetailsUpdate): Promise<ProjectDetails> {
  return apiFetch(`${adminPath(projectId)}/details`, { method: 'PATCH', body: update, schema: projectDetailsSchema });
}

export function useUpdateProjectDetails(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: ProjectDetailsUpdate) => updateProjectDetails(projectId, update),
    onSuccess: (details) => {
      queryClient.setQueryData(projectDetailsKey(projectId), details);
      return invalidateProject(queryClient, projectId);
    },
  });
}
