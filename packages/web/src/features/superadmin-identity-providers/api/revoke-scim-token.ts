import { scimTokenPath } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { IDENTITY_PROVIDERS_KEY } from './keys';

/** DELETE /super/identity-providers/{id}/scim-token: 204; provisioning is off, the provisioned accounts stay. */
export async function revokeScimToken(providerId: number): Promise<void> {
  await apiFetch(scimTokenPath(providerId), { method: 'DELETE' });
}

export function useRevokeScimToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeScimToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: IDENTITY_PROVIDERS_KEY }),
  });
}
