import { type DocumentDetail, type documentCreateSchema, documentDetailSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { documentKey } from './get-document';
import { invalidatePolicies, policyPath } from './keys';

/** What a new document needs: a title; number, department, owner, review settings and content are optional. */
export type DocumentCreateInput = z.input<typeof documentCreateSchema>;

/** POST .../documents: 201 with the new document, a draft (blank unless `content` is given). */
export function createDocument(projectId: string, input: DocumentCreateInput): Promise<DocumentDetail> {
  return apiFetch(`${policyPath(projectId)}/documents`, { method: 'POST', body: input, schema: documentDetailSchema });
}

export function useCreateDocument(projectId: string) {
  return useApiMutation(
    (input: DocumentCreateInput) => createDocument(projectId, input),
    (queryClient, document) => {
      queryClient.setQueryData(documentKey(projectId, document.id), document);
      return invalidatePolicies(queryClient, projectId);
    },
  );
}
