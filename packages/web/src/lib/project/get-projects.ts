import { type MemberProject, memberProjectsSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api';

export const MEMBER_PROJECTS_PATH = '/api/member/projects';

/**
 * GET /api/member/projects: the active projects I may open (every active one for a superadmin). The superadmin's
 * paged list of every project, active or not, is /super/projects (features/superadmin-projects).
 */
export async function getProjects(_superadmin: boolean, signal?: AbortSignal): Promise<MemberProject[]> {
  const { projects } = await apiFetch(MEMBER_PROJECTS_PATH, { signal, schema: memberProjectsSchema });
  return projects;
}

export function projectsQueryOptions(superadmin: boolean) {
  return queryOptions({
    queryKey: superadmin ? ['super', 'projects'] : ['member', 'projects'],
    queryFn: ({ signal }) => getProjects(superadmin, signal),
  });
}

export function useProjects(superadmin: boolean, enabled = true) {
  return useQuery({ ...projectsQueryOptions(superadmin), enabled });
}
