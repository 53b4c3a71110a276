import { type LoginRequest, type LoginResponse, loginResponseSchema, MESSAGES } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export const LOGIN_PATH = '/login';

/** POST /login: step one (credentials, captcha, terms) or step two (the same email and a one-time password). */
export function postLogin(body: LoginRequest): Promise<LoginResponse> {
  return apiFetch(LOGIN_PATH, {
    method: 'POST',
    body,
    schema: loginResponseSchema,
    errorFallback: MESSAGES.loginFailed,
  });
}

export function useLogin() {
  return useMutation({ mutationFn: postLogin });
}
