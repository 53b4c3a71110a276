import { type Member, memberSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { adminPath, projectAdminKey } from './keys';

export type { Member };

export function memberPath(projectId: string, userId: string): string {
  return `${adminPath(projectId)}/members/${userId}`;
}

export function memberKey(projectId: string, userId: string) {
  return [...projectAdminKey(projectId), 'member', userId] as const;
}

/** GET /api/projects/{id}/admin/members/{userId}: one member (404 when the user is not a member). */
export function getMember(projectId: string, userId: string, signal?: AbortSignal): Promise<Member> {
  return apiFetch(memberPath(projectId, userId), { signal, schema: memberSchema });
}

export function memberQueryOptions(projectId: string, userId: string) {
  return apiQuery(memberKey(projectId, userId), (signal) => getMember(projectId, userId, signal));
}

export function useMember(projectId: string, userId: string) {
  return useQuery(memberQueryOptions(projectId, userId));
}
