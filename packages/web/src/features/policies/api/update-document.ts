import { type DocumentDetail, documentDetailSchema, type documentPatchSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { documentKey, documentPath } from './get-document';
import { invalidatePolicies } from './keys';

export type DocumentPatch = z.input<typeof documentPatchSchema>;

/** PATCH .../documents/{documentId}: title, number, department, owner, review interval and next review date. */
export function updateDocument(projectId: string, documentId: string, patch: DocumentPatch): Promise<DocumentDetail> {
  return apiFetch(documentPath(projectId, documentId), { method: 'PATCH', body: patch, schema: documentDetailSchema });
}

export function useUpdateDocument(projectId: string, documentId: string) {
  return useApiMutation(
    (patch: DocumentPatch) => updateDocument(projectId, documentId, patch),
    (queryClient, document) => {
      queryClient.setQueryData(documentKey(projectId, documentId), document);
      return invalidatePolicies(queryClient, projectId);
    },
  );
}
