import { scimTokenPath } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { IDENTITY_PROVIDERS_KEY } from './keys';

/** DELETE /super/identity-providers/{id}/scim-token: 204; provisioning is off, the provisioned accounts stay. */
export async function revokeScimToken(providerId: number): Promise<void> {
  await apiFetch(scimTokenPath(providerId), { method: 'DELETE' });
}

export function useRevokeScimToken() {
  return useInvalidatingMutation(revokeScimToken, [IDENTITY_PROVIDERS_KEY]);
}
