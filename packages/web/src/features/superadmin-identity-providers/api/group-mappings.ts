import {
  type GroupMapping,
  type GroupMappingBody,
  type GroupMappingOptions,
  groupMappingListSchema,
  groupMappingOptionsSchema,
  groupMappingSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { IDENTITY_PROVIDERS_KEY, identityProviderPath } from './keys';

export type { GroupMapping, GroupMappingBody, GroupMappingOptions };

/** Every query of one provider's group mappings (docs/identity.md "Group mappings"). */
export const groupMappingsKey = (providerId: number) => [...IDENTITY_PROVIDERS_KEY, providerId, 'mappings'] as const;
const mappingsPath = (providerId: number) => `${identityProviderPath(providerId)}/mappings`;

/** GET /super/identity-providers/{id}/mappings. */
export async function getGroupMappings(providerId: number, signal?: AbortSignal): Promise<GroupMapping[]> {
  const { mappings } = await apiFetch(mappingsPath(providerId), { signal, schema: groupMappingListSchema });
  return mappings;
}

export function useGroupMappings(providerId: number) {
  return useQuery(apiQuery(groupMappingsKey(providerId), (signal) => getGroupMappings(providerId, signal)));
}

/** GET /super/identity-providers/{id}/mapping-options: active projects, their apps and policy departments. */
export function useGroupMappingOptions(providerId: number, enabled = true) {
  return useQuery({
    queryKey: [...groupMappingsKey(providerId), 'options'],
    queryFn: ({ signal }) =>
      apiFetch(`${identityProviderPath(providerId)}/mapping-options`, { signal, schema: groupMappingOptionsSchema }),
    enabled,
  });
}

/** POST (id null) or PUT a mapping; the list loads again either way. */
export function useSaveGroupMapping(providerId: number) {
  return useInvalidatingMutation(
    ({ id, body }: { id: number | null; body: GroupMappingBody }) =>
      apiFetch(id === null ? mappingsPath(providerId) : `${mappingsPath(providerId)}/${id}`, {
        method: id === null ? 'POST' : 'PUT',
        body,
        schema: groupMappingSchema,
      }),
    [groupMappingsKey(providerId)],
  );
}

/** DELETE a mapping: 204. What it granted goes at each person's next sign-in. */
export function useDeleteGroupMapping(providerId: number) {
  return useInvalidatingMutation(
    async (id: number) => {
      await apiFetch(`${mappingsPath(providerId)}/${id}`, { method: 'DELETE' });
    },
    [groupMappingsKey(providerId)],
  );
}
