import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { IDENTITY_PROVIDERS_KEY, identityProviderPath } from './keys';

/** DELETE /super/identity-providers/{id}: 204; the people it linked keep their accounts. */
export async function deleteIdentityProvider(id: number): Promise<void> {
  await apiFetch(identityProviderPath(id), { method: 'DELETE' });
}

export function useDeleteIdentityProvider() {
  return useInvalidatingMutation(deleteIdentityProvider, [IDENTITY_PROVIDERS_KEY]);
}
