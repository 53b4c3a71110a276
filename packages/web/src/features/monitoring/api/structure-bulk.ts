import { type PageBulkRow, type PageTree, pageTreeSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { invalidateMonitoring, monitoringPath } from './keys';
import { pageTreeQueryOptions } from './pages-list';

export type { PageBulkRow };

/**
 * POST .../pages/bulk {rows}: every row or none; a 400 carries errors keyed rows.{index}.{field} (a stale row:
 * rows.{index}.version) -> the new tree.
 */
export function bulkUpdatePages(projectId: string, rows: PageBulkRow[]): Promise<PageTree> {
  return apiFetch(`${monitoringPath(projectId)}/pages/bulk`, {
    method: 'POST',
    body: { rows },
    schema: pageTreeSchema,
  });
}

export function useBulkUpdatePages(projectId: string) {
  return useApiMutation(
    (rows: PageBulkRow[]) => bulkUpdatePages(projectId, rows),
    (queryClient, tree) => {
      queryClient.setQueryData(pageTreeQueryOptions(projectId).queryKey, tree);
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}
