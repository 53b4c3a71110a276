import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { documentKey, documentPath } from './get-document';
import { invalidatePolicies } from './keys';

/** POST .../documents/{documentId}/archive: the document leaves the table of contents (restorable from the archive). */
export function archiveDocument(projectId: string, documentId: string): Promise<DocumentDetail> {
  return apiFetch(`${documentPath(projectId, documentId)}/archive`, { method: 'POST', schema: documentDetailSchema });
}

export function useArchiveDocument(projectId: string, documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => archiveDocument(projectId, documentId),
    onSuccess: (document) => {
      queryClient.setQueryData(documentKey(projectId, documentId), document);
      return invalidatePolicies(queryClient, projectId);
    },
  });
}
