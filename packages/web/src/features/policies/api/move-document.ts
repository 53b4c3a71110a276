import { moveResultSchema, type moveSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

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
  return useInvalidatingMutation((move: DocumentMove) => moveDocument(projectId, move), [policyKey(projectId)]);
}
