import { type PageDetail, pageDetailSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { monitoringPath } from './keys';
import { pagesKey } from './pages-list';

export type { PageDetail };

export function pageKey(projectId: string, pageId: number) {
  return [...pagesKey(projectId), 'page', pageId] as const;
}

/** GET .../pages/{id}: the page with its sections, ancestors and visible children (404 when hidden or missing). */
export function getPage(projectId: string, pageId: number, signal?: AbortSignal): Promise<PageDetail> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}`, { signal, schema: pageDetailSchema });
}

export function pageQueryOptions(projectId: string, pageId: number) {
  return apiQuery(pageKey(projectId, pageId), (signal) => getPage(projectId, pageId, signal));
}

export function usePage(projectId: string, pageId: number | null) {
  return useQuery({ ...pageQueryOptions(projectId, pageId ?? 0), enabled: pageId !== null });
}
