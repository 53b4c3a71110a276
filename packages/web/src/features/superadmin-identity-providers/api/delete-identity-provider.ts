import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { IDENTITY_PROVIDERS_KEY, identityProviderPath } from './keys';

/** DELETE /super/identity-providers/{id}: 204; the people it linked keep their accounts. */
export async function deleteIdentityProvider(id: number): Promise<void> {
  await apiFetch(identityProviderPath(id), { method: 'DELETE' });
}

export function useDeleteIdentityProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteIdentityProvider,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: IDENTITY_PROVIDERS_KEY }),
  });
}
