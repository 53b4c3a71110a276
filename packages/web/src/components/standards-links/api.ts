import {
  type StdElementHit,
  type StdLink,
  type StdLinkInput,
  type StdLinkTarget,
  stdElementHitsSchema,
  stdLinkListSchema,
  stdLinkSchema,
  stdLinkTargetsSchema,
} from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';

/**
 * The closed-loop links (one table: a standard element -> a policy, a measure or a chart review programme), shared
 * by the standards app (the element's panel) and the add-standards screens of policy management and monitoring.
 * Every standards query of a project starts with `standardsKey`, so a new link refreshes both sides.
 */
export type { StdElementHit, StdLink, StdLinkInput, StdLinkTarget };

export function standardsKey(projectId: string | number) {
  return ['standards', String(projectId)] as const;
}

export function standardsPath(projectId: string | number): string {
  return `/api/projects/${projectId}/standards`;
}

/** GET /links?target_type=&target_id=: the elements one policy, measure or programme supports. */
export function linksQueryOptions(projectId: string | number, targetType: StdLinkTarget, targetId: number) {
  return queryOptions({
    queryKey: [...standardsKey(projectId), 'links', targetType, targetId] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/links?target_type=${targetType}&target_id=${targetId}`, {
        signal,
        schema: stdLinkListSchema,
      }),
  });
}

export function useLinks(projectId: string | number, targetType: StdLinkTarget, targetId: number | null) {
  return useQuery({ ...linksQueryOptions(projectId, targetType, targetId ?? 0), enabled: targetId !== null });
}

/** GET /elements?for=&search=: elements of the project's assessments (the add-standards picker). */
export function useElementSearch(projectId: string | number, forType: StdLinkTarget, search: string) {
  return useQuery({
    queryKey: [...standardsKey(projectId), 'elements', forType, search] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/elements?for=${forType}&search=${encodeURIComponent(search)}`, {
        signal,
        schema: stdElementHitsSchema,
      }),
    placeholderData: (previous) => previous,
  });
}

/** GET /link-targets?type=&search=: the project's policies, measures or programmes (the element panel's picker). */
export function useLinkTargets(projectId: string | number, type: StdLinkTarget, search: string, enabled = true) {
  return useQuery({
    queryKey: [...standardsKey(projectId), 'link-targets', type, search] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/link-targets?type=${type}&search=${encodeURIComponent(search)}`, {
        signal,
        schema: stdLinkTargetsSchema,
      }),
    enabled,
    // While a new search runs, keep the last list of the same type: another type's list would offer, say, policies
    // under "Measure to link".
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === type ? previous : undefined),
  });
}

/** POST /links -> the link. */
export function useCreateLink(projectId: string | number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StdLinkInput) =>
      apiFetch(`${standardsPath(projectId)}/links`, { method: 'POST', body, schema: stdLinkSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: standardsKey(projectId) }),
  });
}

/** DELETE /links/{id} (204). */
export function useDeleteLink(projectId: string | number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: number) => apiFetch<void>(`${standardsPath(projectId)}/links/${linkId}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: standardsKey(projectId) }),
  });
}
