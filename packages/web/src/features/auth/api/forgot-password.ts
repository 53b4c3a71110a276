import { MESSAGES, messageSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export const FORGOT_PASSWORD_PATH = '/password/forgot';

export interface ForgotPasswordRequest {
  email: string;
  captcha?: string;
}

export function postForgotPassword(body: ForgotPasswordRequest): Promise<{ message: string }> {
  return apiFetch(FORGOT_PASSWORD_PATH, {
    method: 'POST',
    body,
    schema: messageSchema,
    errorFallback: MESSAGES.forgotFailed,
  });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: postForgotPassword });
}
