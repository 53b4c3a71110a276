import { type SuperUserDetail, superUserDetailSchema, type UserAction } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { storeUser } from './get-user';
import { superUserPath } from './keys';

export type { UserAction };

/**
 * POST /super/users/{id}/{action}: disable (ends every session at once), enable, reset-two-factor,
 * send-password-reset, unlock, resend-invitation. Answers the user's detail.
 */
export function runUserAction(id: number, action: UserAction): Promise<SuperUserDetail> {
  return apiFetch(`${superUserPath(id)}/${action}`, { method: 'POST', schema: superUserDetailSchema });
}

export function useUserAction(id: number) {
  return useApiMutation(
    (action: UserAction) => runUserAction(id, action),
    (queryClient, user) => storeUser(queryClient, user),
  );
}
