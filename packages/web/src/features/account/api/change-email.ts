import { type CurrentUser, currentUserSchema, type emailChangeSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { AUTH_CHECK_KEY } from '../../../lib/session';
import { CURRENT_USER_KEY } from './get-current-user';

export type EmailChange = z.output<typeof emailChangeSchema>;

/** PUT /api/user/email { email, password }: answers the updated user; 422 with errors.email or errors.password. */
export function changeEmail(change: EmailChange): Promise<CurrentUser> {
  return apiFetch('/api/user/email', { method: 'PUT', body: change, schema: currentUserSchema });
}

export function useChangeEmail() {
  return useApiMutation(changeEmail, (queryClient, user) => {
    queryClient.setQueryData(CURRENT_USER_KEY, user);
    void queryClient.invalidateQueries({ queryKey: AUTH_CHECK_KEY });
  });
}
