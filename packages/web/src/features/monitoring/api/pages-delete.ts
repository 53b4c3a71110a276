import { pageDeletedSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

/**
 * DELETE .../pages/{id}?cascade=: a page with sub-pages is refused (409) unless `cascade`, which deletes the whole
 * branch -> the ids deleted.
 */
export async function deletePage(projectId: string, pageId: number, cascade: boolean): Promise<number[]> {
  const { deleted } = await apiFetch(`${monitoringPath(projectId)}/pages/${pageId}?cascade=${cascade}`, {
    method: 'DELETE',
    schema: pageDeletedSchema,
  });
  return deleted;
}

export function useDeletePage(projectId: string) {
  return useInvalidatingMutation(
    ({ pageId, cascade }: { pageId: number; cascade: boolean }) => deletePage(projectId, pageId, cascade),
    [monitoringKey(projectId)],
  );
}
