import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { documentKey, documentPath } from './get-document';
import { invalidatePolicies } from './keys';

/** POST .../documents/{documentId}/new-version: opens a draft holding the current version's text. */
export function startNewVersion(projectId: string, documentId: string): Promise<DocumentDetail> {
  return apiFetch(`${documentPath(projectId, documentId)}/new-version`, {
    method: 'POST',
    schema: documentDetailSchema,
  });
}

export function useStartNewVersion(projectId: string, documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startNewVersion(projectId, documentId),
    onSuccess: (document) => {
      queryClient.setQueryData(documentKey(projectId, documentId), document);
      return invalidatePolicies(queryClient, projectId);
    },
  });
}
