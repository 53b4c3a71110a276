import { type PageCreate, type PageDetail, type PageUpdate, pageDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { invalidateMonitoring, monitoringPath } from './keys';
import { pageKey } from './pages-detail';

export type { PageCreate, PageUpdate };

/** POST .../pages: a new page, last among its siblings -> the page (201). */
export function createPage(projectId: string, body: PageCreate): Promise<PageDetail> {
  return apiFetch(`${monitoringPath(projectId)}/pages`, { method: 'POST', body, schema: pageDetailSchema });
}

/**
 * PUT .../pages/{id}: the fields to change with the version the edit started from. A stale version answers 409
 * with the current version in errors.version.
 */
export function updatePage(projectId: string, pageId: number, body: PageUpdate): Promise<PageDetail> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}`, { method: 'PUT', body, schema: pageDetailSchema });
}

export function useCreatePage(projectId: string) {
  return useApiMutation(
    (body: PageCreate) => createPage(projectId, body),
    (queryClient, page) => {
      queryClient.setQueryData(pageKey(projectId, page.id), page);
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}

export function useUpdatePage(projectId: string, pageId: number) {
  return useApiMutation(
    (body: PageUpdate) => updatePage(projectId, pageId, body),
    (queryClient, page) => {
      queryClient.setQueryData(pageKey(projectId, page.id), page);
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}
