import { draftSavedSchema, type draftSaveSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { documentPath } from './get-document';
import { policyKey } from './keys';

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
  return useInvalidatingMutation((draft: DraftSave) => saveDraft(projectId, documentId, draft), [policyKey(projectId)]);
}
