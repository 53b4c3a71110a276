import { pageProjectSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';

/** GET /api/monitoring/pages/{id}/project: the project of a page the user may see (404 otherwise). */
export async function getPageProject(pageId: string, signal?: AbortSignal): Promise<number> {
  const { project_id } = await apiFetch(`/api/monitoring/pages/${encodeURIComponent(pageId)}/project`, {
    signal,
    schema: pageProjectSchema,
  });
  return project_id;
}

export function pageProjectQueryOptions(pageId: string) {
  return apiQuery(['monitoring', 'page-project', pageId] as const, (signal) => getPageProject(pageId, signal));
}

export function usePageProject(pageId: string, enabled = true) {
  return useQuery({ ...pageProjectQueryOptions(pageId), enabled });
}
