import { type ProjectDetails, projectDetailsSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { adminPath, projectAdminKey } from './keys';

export type { ProjectDetails };

export function projectDetailsKey(projectId: string) {
  return [...projectAdminKey(projectId), 'details'] as const;
}

/** GET /api/projects/{id}/admin/details: name, facility details, contact email, logo, active apps. */
export function getProjectDetails(projectId: string, signal?: AbortSignal): Promise<ProjectDetails> {
  return apiFetch(`${adminPath(projectId)}/details`, { signal, schema: projectDetailsSchema });
}

export function projectDetailsQueryOptions(projectId: string) {
  return apiQuery(projectDetailsKey(projectId), (signal) => getProjectDetails(projectId, signal));
}

export function useProjectDetails(projectId: string) {
  return useQuery(projectDetailsQueryOptions(projectId));
}
