import { type SuperProjectDetail, type superProjectCreateSchema, superProjectDetailSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { invalidateProjectCaches, projectDetailKey } from './keys';

export type SuperProjectCreateBody = z.output<typeof superProjectCreateSchema>;

/** POST /super/projects -> 201 the new project (409 when the slug is taken). */
export function createSuperProject(body: SuperProjectCreateBody): Promise<SuperProjectDetail> {
  return apiFetch('/super/projects', { method: 'POST', body, schema: superProjectDetailSchema });
}

export function useCreateSuperProject() {
  return useApiMutation(createSuperProject, (queryClient, project) => {
    queryClient.setQueryData(projectDetailKey(String(project.id)), project);
    return invalidateProjectCaches(queryClient, project.id);
  });
}
