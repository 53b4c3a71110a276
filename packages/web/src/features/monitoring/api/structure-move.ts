import { type PageMove, type PageTree, pageTreeSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pageId, body }: { pageId: number; body: PageMove }) => movePage(projectId, pageId, body),
    onSuccess: (tree) => {
      queryClient.setQueryData(pageTreeQueryOptions(projectId).queryKey, tree);
      return invalidateMonitoring(queryClient, projectId);
    },
  });
}
