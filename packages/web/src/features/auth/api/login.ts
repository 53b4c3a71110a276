import { type LoginRequest, type LoginResponse, MESSAGES } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export const LOGIN_PATH = '/login';

/** POST /login: step one (credentials, captcha, terms) or step two (the same email and a one-time password). */
export function postLogin(body: LoginRequest): Promise<LoginResponse> {
  // Typed, not parsed: the login page downloads no zod (decision record 030).
  return apiFetch<LoginResponse>(LOGIN_PATH, {
    method: 'POST',
    body,
    errorFallback: MESSAGES.loginFailed,
  });
}

export function useLogin() {
  return useMutation({ mutationFn: postLogin });
}
