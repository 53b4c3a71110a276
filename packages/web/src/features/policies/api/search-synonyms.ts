import { type SynonymGroup, type SynonymGroupInput, synonymGroupListSchema, synonymGroupSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type { SynonymGroup };

export function synonymsPath(projectId: string): string {
  return `${policyPath(projectId)}/search-synonyms`;
}

export function synonymsKey(projectId: string) {
  return [...policyKey(projectId), 'search-synonyms'] as const;
}

/** GET .../search-synonyms: the project's synonym groups, oldest first (policy administrators). */
export async function getSynonymGroups(projectId: string, signal?: AbortSignal): Promise<SynonymGroup[]> {
  return (await apiFetch(synonymsPath(projectId), { signal, schema: synonymGroupListSchema })).groups;
}

export function useSynonymGroups(projectId: string) {
  return useQuery(apiQuery(synonymsKey(projectId), (signal) => getSynonymGroups(projectId, signal)));
}

// Every change also makes searches stale: their words are widened by the groups.
const stale = (projectId: string) => [policyKey(projectId)];

/** POST .../search-synonyms {terms} -> 201 the group; 400 names a term another group already has. */
export function useCreateSynonymGroup(projectId: string) {
  return useInvalidatingMutation(
    (input: SynonymGroupInput) =>
      apiFetch(synonymsPath(projectId), { method: 'POST', body: input, schema: synonymGroupSchema }),
    stale(projectId),
  );
}

/** PUT .../search-synonyms/{id} {terms} -> the group. */
export function useUpdateSynonymGroup(projectId: string) {
  return useInvalidatingMutation(
    ({ id, ...input }: SynonymGroupInput & { id: number }) =>
      apiFetch(`${synonymsPath(projectId)}/${id}`, { method: 'PUT', body: input, schema: synonymGroupSchema }),
    stale(projectId),
  );
}

/** DELETE .../search-synonyms/{id} -> 204. */
export function useDeleteSynonymGroup(projectId: string) {
  return useInvalidatingMutation(async (id: number) => {
    await apiFetch(`${synonymsPath(projectId)}/${id}`, { method: 'DELETE' });
  }, stale(projectId));
}

/** POST .../search-synonyms/suggested -> every group (the suggested ones that share no word were added). */
export function useAddSuggestedSynonyms(projectId: string) {
  return useInvalidatingMutation(
    async () =>
      (await apiFetch(`${synonymsPath(projectId)}/suggested`, { method: 'POST', schema: synonymGroupListSchema }))
        .groups,
    stale(projectId),
  );
}
