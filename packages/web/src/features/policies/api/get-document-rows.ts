import { type DocumentRow, documentListSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { policyKey, policyPath } from './keys';

export type { DocumentRow };

/** Its own key: the unfiltered list of live documents, shared by the renumbering and import screens. */
export function documentRowsKey(projectId: string) {
  return [...policyKey(projectId), 'document-rows'] as const;
}

/** GET .../policy-management/documents without filters: every live (not archived) document of the project. */
export function getDocumentRows(projectId: string, signal?: AbortSignal): Promise<DocumentRow[]> {
  return apiFetch(`${policyPath(projectId)}/documents`, { signal, schema: documentListSchema });
}

export function documentRowsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: documentRowsKey(projectId),
    queryFn: ({ signal }) => getDocumentRows(projectId, signal),
  });
}

export function useDocumentRows(projectId: string) {
  return useQuery(documentRowsQueryOptions(projectId));
}
