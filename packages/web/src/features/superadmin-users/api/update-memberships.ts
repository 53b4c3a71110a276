import { type SuperUserDetail, superUserDetailSchema, type superUserMembershipsSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { storeUser } from './get-user';
import { SUPER_PROJECTS_KEY, superUserPath } from './keys';

export type MembershipsBody = z.input<typeof superUserMembershipsSchema>;

/** PUT /super/users/{id}/memberships: the complete list; projects left out are left. */
export function updateMemberships(id: number, body: MembershipsBody): Promise<SuperUserDetail> {
  return apiFetch(`${superUserPath(id)}/memberships`, { method: 'PUT', body, schema: superUserDetailSchema });
}

export function useUpdateMemberships(id: number) {
  return useApiMutation(
    (body: MembershipsBody) => updateMemberships(id, body),
    (queryClient, user) => {
      storeUser(queryClient, user);
      // Project pages list their members.
      void queryClient.invalidateQueries({ queryKey: SUPER_PROJECTS_KEY });
    },
  );
}
