import { type PageNode, type PageTree, pageTreeSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

export type { PageNode, PageTree };

/** Every page query of a project (the tree, each page, used numbers): what a page change makes stale. */
export function pagesKey(projectId: string) {
  return [...monitoringKey(projectId), 'pages'] as const;
}

/** GET .../pages: the pages the user may see, flat in tree order, with abilities, numbering mode and max depth. */
export function getPageTree(projectId: string, signal?: AbortSignal): Promise<PageTree> {
  return apiFetch(`${monitoringPath(projectId)}/pages`, { signal, schema: pageTreeSchema });
}

export function pageTreeQueryOptions(projectId: string) {
  return apiQuery([...pagesKey(projectId), 'tree'] as const, (signal) => getPageTree(projectId, signal));
}

export function usePageTree(projectId: string) {
  return useQuery(pageTreeQueryOptions(projectId));
}
