import { type PageMove, type PageTree, pageTreeSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { invalidateMonitoring, monitoringPath } from './keys';
import { pageTreeQueryOptions } from './pages-list';

export type { PageMove };

/**
 * POST .../pages/{id}/move {parent_id, before_id?, version}: the page and its branch under the new parent, before
 * `before_id` (or last) -> the new tree. 400 under its own branch or too deep, 409 when the version is stale.
 */
export function movePage(projectId: string, pageId: number, body: PageMove): Promise<PageTree> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/move`, {
    method: 'POST',
    body,
    schema: pageTreeSchema,
  });
}

export function useMovePage(projectId: string) {
  return useApiMutation(
    ({ pageId, body }: { pageId: number; body: PageMove }) => movePage(projectId, pageId, body),
    (queryClient, tree) => {
      queryClient.setQueryData(pageTreeQueryOptions(projectId).queryKey, tree);
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}
