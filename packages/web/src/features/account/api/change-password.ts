import { messageSchema, type passwordChangeSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { SESSIONS_KEY } from './get-sessions';

export type PasswordChange = z.output<typeof passwordChangeSchema>;

/**
 * PUT /api/user/password { current_password, password, password_confirmation }: answers { message } and ends the
 * user's other sessions; 422 with errors.current_password, errors.password or errors.password_confirmation.
 */
export function changePassword(change: PasswordChange): Promise<{ message: string }> {
  return apiFetch('/api/user/password', { method: 'PUT', body: change, schema: messageSchema });
}

export function useChangePassword() {
  // The other sessions are gone: the list must say so.
  return useInvalidatingMutation(changePassword, [SESSIONS_KEY]);
}
