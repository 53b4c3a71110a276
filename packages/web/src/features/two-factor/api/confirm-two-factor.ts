import { recoveryCodesSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

/**
 * POST /api/two-factor/confirm: turns two-factor on and answers the recovery codes (shown once); 423 without a recent
 * confirmation, then sent again with the password.
 */
export async function confirmTwoFactor({ code, password }: { code: string; password?: string }): Promise<string[]> {
  const { recovery_codes } = await apiFetch('/api/two-factor/confirm', {
    method: 'POST',
    body: password === undefined ? { code } : { code, password },
    schema: recoveryCodesSchema,
  });
  return recovery_codes;
}

export function useConfirmTwoFactor() {
  return useMutation({ mutationFn: confirmTwoFactor });
}
