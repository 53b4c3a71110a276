import { type IdentityProvider, identityProviderListSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { IDENTITY_PROVIDERS_KEY, IDENTITY_PROVIDERS_PATH } from './keys';

export type { IdentityProvider };

/** GET /super/identity-providers: every provider, enabled or not, with its linked-user count. */
export async function getIdentityProviders(signal?: AbortSignal): Promise<IdentityProvider[]> {
  const { providers } = await apiFetch(IDENTITY_PROVIDERS_PATH, { signal, schema: identityProviderListSchema });
  return providers;
}

export function identityProvidersQueryOptions() {
  return queryOptions({ queryKey: IDENTITY_PROVIDERS_KEY, queryFn: ({ signal }) => getIdentityProviders(signal) });
}

export function useIdentityProviders() {
  return useQuery(identityProvidersQueryOptions());
}
