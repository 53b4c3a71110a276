import { draftSavedSchema, type draftSaveSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { documentPath } from './get-document';
import { invalidatePolicies } from './keys';

export type DraftSave = z.input<typeof draftSaveSchema>;
export type DraftSaved = z.infer<typeof draftSavedSchema>;

/**
 * PUT .../documents/{documentId}/draft {content, change_summary, base_revision}: stores the working draft (creating
 * it from the current version when there is none). 409 when base_revision is stale: someone else saved meanwhile.
 * `keepalive` lets a save started while the page is being left finish after it.
 */
export function saveDraft(
  projectId: string,
  documentId: string,
  draft: DraftSave,
  options: { keepalive?: boolean } = {},
): Promise<DraftSaved> {
  return apiFetch(`${documentPath(projectId, documentId)}/draft`, {
    method: 'PUT',
    body: draft,
    schema: draftSavedSchema,
    keepalive: options.keepalive,
  });
}

export function useSaveDraft(projectId: string, documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draft: DraftSave) => saveDraft(projectId, documentId, draft),
    onSuccess: () => invalidatePolicies(queryClient, projectId),
  });
}
