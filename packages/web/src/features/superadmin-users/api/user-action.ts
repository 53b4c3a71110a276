import { type SuperUserDetail, superUserDetailSchema, type UserAction } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { storeUser } from './get-user';
import { superUserPath } from './keys';

export type { UserAction };

/**
 * POST /super/users/{id}/{action}: disable (ends every session at once), enable, reset-two-factor,
 * send-password-reset, unlock, resend-invitation. Answers the user's detail. reset-two-factor answers 423 when the
 * superadmin's own sign-in or password confirmation is over 10 minutes old; it is then sent with their password.
 */
export function runUserAction(id: number, action: UserAction, password?: string): Promise<SuperUserDetail> {
  return apiFetch(`${superUserPath(id)}/${action}`, {
    method: 'POST',
    ...(password === undefined ? {} : { body: { password } }),
    schema: superUserDetailSchema,
  });
}

export interface UserActionInput {
  action: UserAction;
  password?: string;
}

export function useUserAction(id: number) {
  return useApiMutation(
    ({ action, password }: UserActionInput) => runUserAction(id, action, password),
    (queryClient, user) => storeUser(queryClient, user),
  );
}
