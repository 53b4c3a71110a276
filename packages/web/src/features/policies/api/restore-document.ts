import { restoreResultSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { invalidatePolicies, policyPath } from './keys';

export type RestoreResult = z.infer<typeof restoreResultSchema>;

/** POST .../documents/{id}/restore: back from the archive; `message` says what happened (e.g. its number was freed). */
export function restoreDocument(projectId: string, documentId: number): Promise<RestoreResult> {
  return apiFetch(`${policyPath(projectId)}/documents/${documentId}/restore`, {
    method: 'POST',
    schema: restoreResultSchema,
  });
}

export function useRestoreDocument(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (documentId: number) => restoreDocument(projectId, documentId),
    onSuccess: () => invalidatePolicies(queryClient, projectId),
  });
}
