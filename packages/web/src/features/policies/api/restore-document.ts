import { restoreResultSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type RestoreResult = z.infer<typeof restoreResultSchema>;

/** POST .../documents/{id}/restore: back from the archive; `message` says what happened (e.g. its number was freed). */
export function restoreDocument(projectId: string, documentId: number): Promise<RestoreResult> {
  return apiFetch(`${policyPath(projectId)}/documents/${documentId}/restore`, {
    method: 'POST',
    schema: restoreResultSchema,
  });
}

export function useRestoreDocument(projectId: string) {
  return useInvalidatingMutation(
    (documentId: number) => restoreDocument(projectId, documentId),
    [policyKey(projectId)],
  );
}
