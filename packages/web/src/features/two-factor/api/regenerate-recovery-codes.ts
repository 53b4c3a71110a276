import { recoveryCodesSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

/** POST /api/two-factor/recovery-codes; 423 without a sign-in or password confirmation in the last 10 minutes. */
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
