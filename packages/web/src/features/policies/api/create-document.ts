import { type DocumentDetail, type documentCreateSchema, documentDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { documentKey } from './get-document';
import { invalidatePolicies, policyPath } from './keys';

/** What a new document needs: a title; number, department, owner, review settings and content are optional. */
export type DocumentCreateInput = z.input<typeof documentCreateSchema>;

/** POST .../documents: 201 with the new document, a draft (blank unless `content` is given). */
export function createDocument(projectId: string, input: DocumentCreateInput): Promise<DocumentDetail> {
  return apiFetch(`${policyPath(projectId)}/documents`, { method: 'POST', body: input, schema: documentDetailSchema });
}

export function useCreateDocument(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DocumentCreateInput) => createDocument(projectId, input),
    onSuccess: (document) => {
      queryClient.setQueryData(documentKey(projectId, document.id), document);
      return invalidatePolicies(queryClient, projectId);
    },
  });
}
