import { moveResultSchema, type moveSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { invalidatePolicies, policyPath } from './keys';

export type DocumentMove = z.infer<typeof moveSchema>;
export type MoveResult = z.infer<typeof moveResultSchema>;

/**
 * POST .../policy-management/documents/move {document_id, parent, index, expected}: renumbers as planMove does;
 * 409 when the server's plan differs from `expected` (someone renumbered meanwhile).
 */
export function moveDocument(projectId: string, move: DocumentMove): Promise<MoveResult> {
  return apiFetch(`${policyPath(projectId)}/documents/move`, { method: 'POST', body: move, schema: moveResultSchema });
}

export function useMoveDocument(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (move: DocumentMove) => moveDocument(projectId, move),
    onSuccess: () => invalidatePolicies(queryClient, projectId),
  });
}
