import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

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
  return useInvalidatingMutation(
    (input: RestoreVersionInput) => restoreVersion(projectId, input),
    [policyKey(projectId)],
  );
}
