import { recoveryCodesSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

/** POST /api/two-factor/recovery-codes; 423 until the password was confirmed in the last 15 minutes. */
export async function regenerateRecoveryCodes(password?: string): Promise<string[]> {
  const { recovery_codes } = await apiFetch('/api/two-factor/recovery-codes', {
    method: 'POST',
    body: password === undefined ? {} : { password },
    schema: recoveryCodesSchema,
  });
  return recovery_codes;
}

export function useRegenerateRecoveryCodes() {
  return useMutation({ mutationFn: regenerateRecoveryCodes });
}
