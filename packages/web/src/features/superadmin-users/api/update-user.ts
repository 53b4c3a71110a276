import { type SuperUserDetail, superUserDetailSchema, type superUserUpdateSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { storeUser } from './get-user';
import { superUserPath } from './keys';

export type SuperUserUpdateBody = z.output<typeof superUserUpdateSchema>;

/** PATCH /super/users/{id}: profile and global role (only the fields that changed). */
export function updateUser(id: number, body: SuperUserUpdateBody): Promise<SuperUserDetail> {
  return apiFetch(superUserPath(id), { method: 'PATCH', body, schema: superUserDetailSchema });
}

export function useUpdateUser(id: number) {
  return useApiMutation(
    (body: SuperUserUpdateBody) => updateUser(id, body),
    (queryClient, user) => storeUser(queryClient, user),
  );
}
