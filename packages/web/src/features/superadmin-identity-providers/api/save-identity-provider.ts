import { type IdentityProvider, type identityProviderInputSchema, identityProviderSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { IDENTITY_PROVIDERS_KEY, IDENTITY_PROVIDERS_PATH, identityProviderPath } from './keys';

export type IdentityProviderBody = z.output<typeof identityProviderInputSchema>;

/** POST /super/identity-providers: answers 201 with the provider (its callback URL among it). */
export function createIdentityProvider(body: IdentityProviderBody): Promise<IdentityProvider> {
  return apiFetch(IDENTITY_PROVIDERS_PATH, { method: 'POST', body, schema: identityProviderSchema });
}

/** PUT /super/identity-providers/{id}: the whole provider; no (or an empty) client secret keeps the stored one. */
export function updateIdentityProvider(id: number, body: IdentityProviderBody): Promise<IdentityProvider> {
  return apiFetch(identityProviderPath(id), { method: 'PUT', body, schema: identityProviderSchema });
}

/** Creates (id null) or updates a provider; the list loads again either way. */
export function useSaveIdentityProvider() {
  return useInvalidatingMutation(
    ({ id, body }: { id: number | null; body: IdentityProviderBody }) =>
      id === null ? createIdentityProvider(body) : updateIdentityProvider(id, body),
    [IDENTITY_PROVIDERS_KEY],
  );
}
