import { type MemberProject, memberProjectsSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export const MEMBER_PROJECTS_PATH = '/api/member/projects';

export type { MemberProject };

export async function getMemberProjects(signal?: AbortSignal): Promise<MemberProject[]> {
  const { projects } = await apiFetch(MEMBER_PROJECTS_PATH, { signal, schema: memberProjectsSchema });
  return projects;
}

export function memberProjectsQueryOptions() {
  return queryOptions({ queryKey: ['member', 'projects'], queryFn: ({ signal }) => getMemberProjects(signal) });
}

export function useMemberProjects() {
  return useQuery(memberProjectsQueryOptions());
}
