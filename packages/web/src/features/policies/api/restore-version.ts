import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { invalidatePolicies, policyPath } from './keys';

export interface RestoreVersionInput {
  documentId: number;
  versionId: number;
}

/**
 * POST .../documents/{id}/versions/{versionId}/restore: the old version's text becomes the document's draft.
 * 409 (with the server's message) when a draft is already open.
 */
export function restoreVersion(
  projectId: string,
  { documentId, versionId }: RestoreVersionInput,
): Promise<DocumentDetail> {
  return apiFetch(`${policyPath(projectId)}/documents/${documentId}/versions/${versionId}/restore`, {
    method: 'POST',
    schema: documentDetailSchema,
  });
}

export function useRestoreVersion(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RestoreVersionInput) => restoreVersion(projectId, input),
    onSuccess: () => invalidatePolicies(queryClient, projectId),
  });
}
