import { type MemberProject, memberProjectsSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api';

export const MEMBER_PROJECTS_PATH = '/api/member/projects';
export const SUPER_PROJECTS_PATH = '/super/projects';

/** GET /api/member/projects, or /super/projects (every project) for a superadmin: same shape. */
export async function getProjects(superadmin: boolean, signal?: AbortSignal): Promise<MemberProject[]> {
  const path = superadmin ? SUPER_PROJECTS_PATH : MEMBER_PROJECTS_PATH;
  const { projects } = await apiFetch(path, { signal, schema: memberProjectsSchema });
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
