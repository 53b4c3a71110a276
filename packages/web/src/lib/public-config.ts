import type { PublicConfig } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api';

export const PUBLIC_CONFIG_PATH = '/api/public/config';

/** Used while the configuration cannot be loaded: the defaults, with the captcha on (the safe side). */
export const FALLBACK_PUBLIC_CONFIG: PublicConfig = {
  inactivityTimeoutMinutes: 15,
  captcha: { provider: 'altcha', challengeUrl: '/api/public/captcha/challenge' },
};

export function getPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  // Typed, not parsed: the login page downloads no zod (decision record 030).
  return apiFetch<PublicConfig>(PUBLIC_CONFIG_PATH, { signal });
}

export function publicConfigQueryOptions() {
  return queryOptions({
    queryKey: ['public', 'config'],
    queryFn: ({ signal }) => getPublicConfig(signal),
    // Changes only with a server restart.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The server's public configuration; `config` falls back to the defaults when it failed to load. */
export function usePublicConfig() {
  const query = useQuery(publicConfigQueryOptions());
  return { ...query, config: query.data ?? (query.isError ? FALLBACK_PUBLIC_CONFIG : undefined) };
}
