import {
  type StdBulk,
  type StdElement,
  type StdElementUpdate,
  stdBulkResultSchema,
  stdElementSchema,
} from '@portal/shared';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { useApiMutation, useInvalidatingMutation } from '../../../lib/api-hooks';

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

/** A change to one element (its assessment, wording, comments, evidence) whose answer is the element itself. */
export function useElementMutation<TVariables>(
  projectId: string,
  mutationFn: (variables: TVariables) => Promise<StdElement>,
) {
  return useApiMutation(mutationFn, (queryClient, element) => afterElementChange(queryClient, projectId, element));
}

/** Sends `body` to `path` under the project's standards API; the server answers with the changed element. */
export function sendForElement(projectId: string, method: 'POST' | 'PUT', path: string, body: unknown) {
  return apiFetch(`${standardsPath(projectId)}${path}`, { method, body, schema: stdElementSchema });
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
  return useElementMutation(projectId, (body: StdElementUpdate) =>
    sendForElement(projectId, 'PUT', `/req-assessments/${reqId}`, body),
  );
}

/** PUT /req-assessments/{id}/wording: the facility's own words for the element. */
export function useSaveWording(projectId: string, reqId: number) {
  return useElementMutation(projectId, (body: StdWordingInput) =>
    sendForElement(projectId, 'PUT', `/req-assessments/${reqId}/wording`, body),
  );
}

/** POST /req-assessments/{id}/comments -> the element with the new comment. */
export function useAddComment(projectId: string, reqId: number) {
  return useElementMutation(projectId, (body: { body: string }) =>
    sendForElement(projectId, 'POST', `/req-assessments/${reqId}/comments`, body),
  );
}

/** POST /req-assessments/bulk: an owner and/or a due date for many elements -> how many changed. */
export function useBulkUpdate(projectId: string) {
  return useInvalidatingMutation(
    (body: StdBulk) =>
      apiFetch(`${standardsPath(projectId)}/req-assessments/bulk`, {
        method: 'POST',
        body,
        schema: stdBulkResultSchema,
      }),
    [standardsKey(projectId)],
  );
}
