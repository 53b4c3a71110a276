import { type Member, memberListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { projectMembersKey, superProjectPath } from './keys';

export type { Member };
export type MemberList = z.infer<typeof memberListSchema>;

export function membersPath(projectId: string): string {
  return `${superProjectPath(projectId)}/members`;
}

/** GET /super/projects/{id}/members: every member with project role and main roles. */
export function getProjectMembers(projectId: string, signal?: AbortSignal): Promise<MemberList> {
  return apiFetch(membersPath(projectId), { signal, schema: memberListSchema });
}

export function projectMembersQueryOptions(projectId: string) {
  return apiQuery(projectMembersKey(projectId), (signal) => getProjectMembers(projectId, signal));
}

export function useProjectMembers(projectId: string) {
  return useQuery(projectMembersQueryOptions(projectId));
}
