import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../../lib/api';

export const MEMBER_PROJECTS_PATH = '/api/member/projects';

// Not in @portal/shared yet: the server's projects module owns this contract (see the report of issue 3).
export const memberProjectSchema = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });
export const memberProjectsSchema = z.object({ projects: z.array(memberProjectSchema) });
export type MemberProject = z.infer<typeof memberProjectSchema>;

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
