import { type ScimToken, scimTokenPath, scimTokenSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { IDENTITY_PROVIDERS_KEY } from './keys';

export type { ScimToken };

/**
 * POST /super/identity-providers/{id}/scim-token: a new SCIM token for the provider, shown in this answer only; an
 * existing one stops working at once.
 */
export function rotateScimToken(providerId: number): Promise<ScimToken> {
  return apiFetch(scimTokenPath(providerId), { method: 'POST', schema: scimTokenSchema });
}

export function useRotateScimToken() {
  return useInvalidatingMutation(rotateScimToken, [IDENTITY_PROVIDERS_KEY]);
}
