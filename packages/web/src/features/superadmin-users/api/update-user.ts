import { type SuperUserDetail, superUserDetailSchema, type superUserUpdateSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { storeUser } from './get-user';
import { superUserPath } from './keys';

export type SuperUserUpdateBody = z.output<typeof superUserUpdateSchema>;

/** PATCH /super/users/{id}: profile and global role (only the fields that changed). */
export function updateUser(id: number, body: SuperUserUpdateBody): Promise<SuperUserDetail> {
  return apiFetch(superUserPath(id), { method: 'PATCH', body, schema: superUserDetailSchema });
}

export function useUpdateUser(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SuperUserUpdateBody) => updateUser(id, body),
    onSuccess: (user) => storeUser(queryClient, user),
  });
}
