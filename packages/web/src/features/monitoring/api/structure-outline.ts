import { type OutlineItem, outlineCreatedSchema, outlinePreviewSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

export type { OutlineItem };

function outlineForm(file: File, parentId: number | null): FormData {
  const form = new FormData();
  // The parent first, then the file (the server reads both in any order).
  if (parentId !== null) form.append('parent_id', String(parentId));
  form.append('file', file);
  return form;
}

/** POST .../pages/convert?preview=true (multipart: file, parent_id?): the outline, nothing created. */
export async function previewOutline(projectId: string, file: File, parentId: number | null): Promise<OutlineItem[]> {
  const { pages } = await apiFetch(`${monitoringPath(projectId)}/pages/convert?preview=true`, {
    method: 'POST',
    body: outlineForm(file, parentId),
    schema: outlinePreviewSchema,
  });
  return pages;
}

/** POST .../pages/convert (multipart: file, parent_id?): creates the outline's pages as drafts -> how many. */
export async function importOutline(projectId: string, file: File, parentId: number | null): Promise<number> {
  const { created } = await apiFetch(`${monitoringPath(projectId)}/pages/convert`, {
    method: 'POST',
    body: outlineForm(file, parentId),
    schema: outlineCreatedSchema,
  });
  return created;
}

export function usePreviewOutline(projectId: string) {
  return useMutation({
    mutationFn: ({ file, parentId }: { file: File; parentId: number | null }) =>
      previewOutline(projectId, file, parentId),
  });
}

export function useImportOutline(projectId: string) {
  return useInvalidatingMutation(
    ({ file, parentId }: { file: File; parentId: number | null }) => importOutline(projectId, file, parentId),
    [monitoringKey(projectId)],
  );
}
