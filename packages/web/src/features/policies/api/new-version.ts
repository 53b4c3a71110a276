import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
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
  return useApiMutation(
    () => startNewVersion(projectId, documentId),
    (queryClient, document) => {
      queryClient.setQueryData(documentKey(projectId, documentId), document);
      return invalidatePolicies(queryClient, projectId);
    },
  );
}
