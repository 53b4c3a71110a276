import { type StdMe, stdMeSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';

export type { StdMe };

export function stdMeKey(projectId: string) {
  return [...standardsKey(projectId), 'me'] as const;
}

/**
 * GET /me: my standards role and what the screens may offer me. 404 when the project is not mine or the Standards
 * app is off for it; 403 (with a message) when I have no standards role.
 */
export function getStdMe(projectId: string, signal?: AbortSignal): Promise<StdMe> {
  return apiFetch(`${standardsPath(projectId)}/me`, { signal, schema: stdMeSchema });
}

export function stdMeQueryOptions(projectId: string) {
  return queryOptions({ queryKey: stdMeKey(projectId), queryFn: ({ signal }) => getStdMe(projectId, signal) });
}

export function useStdMe(projectId: string) {
  return useQuery(stdMeQueryOptions(projectId));
}
