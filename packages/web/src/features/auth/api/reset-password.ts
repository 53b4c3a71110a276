import type { resetPasswordSchema } from '@portal/shared';
import { errorMessage, MESSAGES } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, apiFetch } from '../../../lib/api';

export const RESET_PASSWORD_PATH = '/password/reset';

export type ResetPasswordRequest = z.input<typeof resetPasswordSchema>;

/** POST /password/reset. The SPEC does not show the success body, so any 2xx counts as success. */
export async function postResetPassword(body: ResetPasswordRequest): Promise<void> {
  await apiFetch(RESET_PASSWORD_PATH, { method: 'POST', body, errorFallback: MESSAGES.resetFailed });
}

export function useResetPassword() {
  return useMutation({ mutationFn: postResetPassword });
}

/**
 * SPEC section 8: the server's message, else the first value of `errors` (first item of a list), else
 * 'Reset failed'; an error without a structured answer (no connection, not JSON) is 'An unknown error occurred
 * during reset.'
 */
export function resetErrorMessage(error: unknown): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    return errorMessage(error.body, MESSAGES.resetFailed);
  }
  return MESSAGES.resetUnknown;
}
