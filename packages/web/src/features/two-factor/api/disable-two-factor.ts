import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { TWO_FACTOR_PATH } from './get-two-factor-status';

/** DELETE /api/two-factor; 423 without a sign-in or password confirmation in the last 10 minutes. */
export function disableTwoFactor(password?: string): Promise<void> {
  return apiFetch(TWO_FACTOR_PATH, { method: 'DELETE', body: password === undefined ? {} : { password } });
}

export function useDisableTwoFactor() {
  return useMutation({ mutationFn: disableTwoFactor });
}
