import { type SuperUserDetail, superUserDetailSchema, type superUserMembershipsSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { storeUser } from './get-user';
import { SUPER_PROJECTS_KEY, superUserPath } from './keys';

export type MembershipsBody = z.input<typeof superUserMembershipsSchema>;

/** PUT /super/users/{id}/memberships: the complete list; projects left out are left. */
export function updateMemberships(id: number, body: MembershipsBody): Promise<SuperUserDetail> {
  return apiFetch(`${superUserPath(id)}/memberships`, { method: 'PUT', body, schema: superUserDetailSchema });
}

export function useUpdateMemberships(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MembershipsBody) => updateMemberships(id, body),
    onSuccess: (user) => {
      storeUser(queryClient, user);
      // Project pages list their members.
      void queryClient.invalidateQueries({ queryKey: SUPER_PROJECTS_KEY });
    },
  });
}
