import { twoFactorSetupSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';

export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** POST /api/two-factor/enable: a new (unconfirmed) secret with its QR code; 423 without a recent confirmation. */
export function enableTwoFactor(password?: string): Promise<TwoFactorSetup> {
  return apiFetch('/api/two-factor/enable', {
    method: 'POST',
    ...(password === undefined ? {} : { body: { password } }),
    schema: twoFactorSetupSchema,
  });
}

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}
