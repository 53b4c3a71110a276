import {
  type StdBulk,
  type StdElement,
  type StdElementUpdate,
  stdBulkResultSchema,
  stdElementSchema,
} from '@portal/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';

export type { StdBulk, StdElement, StdElementUpdate };
export type StdLinkedPolicy = StdElement['policies'][number];
export type StdLinkedMeasure = StdElement['measures'][number];
export type StdLinkedProgram = StdElement['programs'][number];

export interface StdWordingInput {
  wording: string;
  guidance: string;
  public_url: string;
}

export function stdElementKey(projectId: string, reqId: number) {
  return [...standardsKey(projectId), 'element', reqId] as const;
}

/**
 * After a change to one element: the element as the server answered, and every other standards query of the
 * project (trees, assessment counts, my elements) refetched. The element itself is not fetched again.
 */
function afterElementChange(queryClient: QueryClient, projectId: string, element: StdElement) {
  queryClient.setQueryData(stdElementKey(projectId, element.id), element);
  return queryClient.invalidateQueries({
    queryKey: standardsKey(projectId),
    predicate: (query) => query.queryKey[2] !== 'element' || query.queryKey[3] !== element.id,
  });
}

/** GET /req-assessments/{id}: one element's assessment, its wording, links, comments and history (the side panel). */
export function useStdElement(projectId: string, reqId: number | null) {
  return useQuery({
    queryKey: stdElementKey(projectId, reqId ?? 0),
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/req-assessments/${reqId}`, { signal, schema: stdElementSchema }),
    enabled: reqId !== null,
  });
}

/** PUT /req-assessments/{id}: the assessment with the `version` it was read at (409 when someone saved since). */
export function useSaveElement(projectId: string, reqId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StdElementUpdate) =>
      apiFetch(`${standardsPath(projectId)}/req-assessments/${reqId}`, {
        method: 'PUT',
        body,
        schema: stdElementSchema,
      }),
    onSuccess: (element) => afterElementChange(queryClient, projectId, element),
  });
}

/** PUT /req-assessments/{id}/wording: the facility's own words for the element. */
export function useSaveWording(projectId: string, reqId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StdWordingInput) =>
      apiFetch(`${standardsPath(projectId)}/req-assessments/${reqId}/wording`, {
        method: 'PUT',
        body,
        schema: stdElementSchema,
      }),
    onSuccess: (element) => afterElementChange(queryClient, projectId, element),
  });
}

/** POST /req-assessments/{id}/comments -> the element with the new comment. */
export function useAddComment(projectId: string, reqId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { body: string }) =>
      apiFetch(`${standardsPath(projectId)}/req-assessments/${reqId}/comments`, {
        method: 'POST',
        body,
        schema: stdElementSchema,
      }),
    onSuccess: (element) => afterElementChange(queryClient, projectId, element),
  });
}

/** POST /req-assessments/bulk: an owner and/or a due date for many elements -> how many changed. */
export function useBulkUpdate(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StdBulk) =>
      apiFetch(`${standardsPath(projectId)}/req-assessments/bulk`, {
        method: 'POST',
        body,
        schema: stdBulkResultSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: standardsKey(projectId) }),
  });
}
