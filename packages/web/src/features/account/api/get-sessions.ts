import { sessionListSchema, type sessionSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';

export type UserSession = z.infer<typeof sessionSchema>;

export const SESSIONS_PATH = '/api/user/sessions';
export const SESSIONS_KEY = ['user', 'sessions'] as const;

/** GET /api/user/sessions: the user's signed-in sessions, the one making the request marked `current`. */
export async function getSessions(signal?: AbortSignal): Promise<UserSession[]> {
  const { sessions } = await apiFetch(SESSIONS_PATH, { signal, schema: sessionListSchema });
  return sessions;
}

export function sessionsQueryOptions() {
  return queryOptions({ queryKey: SESSIONS_KEY, queryFn: ({ signal }) => getSessions(signal) });
}

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
