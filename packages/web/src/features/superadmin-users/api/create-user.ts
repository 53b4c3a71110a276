import { type SuperUserDetail, type superUserCreateSchema, superUserDetailSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { storeUser } from './get-user';
import { SUPER_PROJECTS_KEY } from './keys';

export type SuperUserCreateBody = z.output<typeof superUserCreateSchema>;

/** POST /super/users: creates the account and emails the invitation; answers 201 with the user. */
export function createUser(body: SuperUserCreateBody): Promise<SuperUserDetail> {
  return apiFetch('/super/users', { method: 'POST', body, schema: superUserDetailSchema });
}

export function useCreateUser() {
  return useApiMutation(createUser, (queryClient, user) => {
    storeUser(queryClient, user);
    if (user.memberships.length > 0) void queryClient.invalidateQueries({ queryKey: SUPER_PROJECTS_KEY });
  });
}
