import { type SuperUserDetail, type superUserCreateSchema, superUserDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { storeUser } from './get-user';
import { SUPER_PROJECTS_KEY } from './keys';

export type SuperUserCreateBody = z.output<typeof superUserCreateSchema>;

/** POST /super/users: creates the account and emails the invitation; answers 201 with the user. */
export function createUser(body: SuperUserCreateBody): Promise<SuperUserDetail> {
  return apiFetch('/super/users', { method: 'POST', body, schema: superUserDetailSchema });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: (user) => {
      storeUser(queryClient, user);
      if (user.memberships.length > 0) void queryClient.invalidateQueries({ queryKey: SUPER_PROJECTS_KEY });
    },
  });
}
