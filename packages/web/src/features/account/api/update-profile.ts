import { type CurrentUser, currentUserSchema, type profileUpdateSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { AUTH_CHECK_KEY } from '../../../lib/session';
import { CURRENT_USER_KEY } from './get-current-user';

export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

/** PUT /api/user/profile { first_name, last_name }: answers the updated user. */
export function updateProfile(profile: ProfileUpdate): Promise<CurrentUser> {
  return apiFetch('/api/user/profile', { method: 'PUT', body: profile, schema: currentUserSchema });
}

export function useUpdateProfile() {
  return useApiMutation(updateProfile, (queryClient, user) => {
    queryClient.setQueryData(CURRENT_USER_KEY, user);
    // The layout shows the user's name from the session.
    void queryClient.invalidateQueries({ queryKey: AUTH_CHECK_KEY });
  });
}
