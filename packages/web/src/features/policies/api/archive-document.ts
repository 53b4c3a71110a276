import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { documentKey, documentPath } from './get-document';
import { invalidatePolicies } from './keys';

/** POST .../documents/{documentId}/archive: the document leaves the table of contents (restorable from the archive). */
export function archiveDocument(projectId: string, documentId: string): Promise<DocumentDetail> {
  return apiFetch(`${documentPath(projectId, documentId)}/archive`, { method: 'POST', schema: documentDetailSchema });
}

export function useArchiveDocument(projectId: string, documentId: string) {
  return useApiMutation(
    () => archiveDocument(projectId, documentId),
    (queryClient, document) => {
      queryClient.setQueryData(documentKey(projectId, documentId), document);
      return invalidatePolicies(queryClient, projectId);
    },
  );
}
