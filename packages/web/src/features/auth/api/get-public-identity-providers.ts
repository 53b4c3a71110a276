import type { PublicIdentityProvider } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export type { PublicIdentityProvider };

export const PUBLIC_IDENTITY_PROVIDERS_PATH = '/api/public/identity-providers';

/** GET /api/public/identity-providers: the enabled providers, a sign-in button each. */
export async function getPublicIdentityProviders(signal?: AbortSignal): Promise<PublicIdentityProvider[]> {
  // Typed, not parsed: the login page downloads no zod (decision record 030).
  const { providers } = await apiFetch<{ providers: PublicIdentityProvider[] }>(PUBLIC_IDENTITY_PROVIDERS_PATH, {
    signal,
  });
  return providers;
}

export function publicIdentityProvidersQueryOptions() {
  return queryOptions({
    queryKey: ['public', 'identity-providers'],
    queryFn: ({ signal }) => getPublicIdentityProviders(signal),
    // The password form works without them: a failure shows no buttons rather than an error.
    retry: false,
    staleTime: 60_000,
  });
}

/** The enabled providers; empty while loading or when the call failed. */
export function usePublicIdentityProviders(): PublicIdentityProvider[] {
  return useQuery(publicIdentityProvidersQueryOptions()).data ?? NONE;
}

const NONE: PublicIdentityProvider[] = [];
