import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { documentKey, documentPath } from './get-document';
import { invalidatePolicies } from './keys';

/**
 * POST .../documents/{documentId}/archive: the document leaves the table of contents (restorable from the archive).
 * `replacedById` names the published policy that takes its place: its stable link then leads readers there.
 */
export function archiveDocument(
  projectId: string,
  documentId: string,
  replacedById: number | null = null,
): Promise<DocumentDetail> {
  return apiFetch(`${documentPath(projectId, documentId)}/archive`, {
    method: 'POST',
    ...(replacedById === null ? {} : { body: { replaced_by_id: replacedById } }),
    schema: documentDetailSchema,
  });
}

export function useArchiveDocument(projectId: string, documentId: string) {
  return useApiMutation(
    (replacedById: number | null) => archiveDocument(projectId, documentId, replacedById),
    (queryClient, document) => {
      queryClient.setQueryData(documentKey(projectId, documentId), document);
      return invalidatePolicies(queryClient, projectId);
    },
  );
}
