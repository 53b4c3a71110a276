import { pageTreeSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from './api';

/**
 * The Analytics table of contents of the layout's sub-menu: GET .../monitoring/pages (only the pages the user may
 * see, in tree order). Keyed under ['monitoring', projectId, 'pages'], so every change the monitoring screens make
 * to pages refreshes it too.
 */
export function monitoringTocQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: ['monitoring', projectId, 'pages', 'toc'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`/api/projects/${projectId}/monitoring/pages`, { signal, schema: pageTreeSchema }),
    staleTime: 60_000,
  });
}

/**
 * Tree items of the sub-menu, each linking to its page view. The tree is built from each page's place in the tree
 * (a path such as "2.1.3"), so it nests rightly even when numbers are typed by hand; the row shows the page's own
 * number.
 */
export function useMonitoringTocItems(projectId: string | null) {
  const query = useQuery({ ...monitoringTocQueryOptions(projectId ?? ''), enabled: projectId !== null });
  const pages = query.data?.pages ?? [];
  const paths = new Map<number, string>();
  const seen = new Map<number | null, number>();
  const items = pages.flatMap((page) => {
    const index = (seen.get(page.parent_id) ?? 0) + 1;
    seen.set(page.parent_id, index);
    const parentPath = page.parent_id === null ? '' : paths.get(page.parent_id);
    // The list comes parents first; a page whose parent is not listed is left out rather than misplaced.
    if (parentPath === undefined) return [];
    const path = parentPath ? `${parentPath}.${index}` : String(index);
    paths.set(page.id, path);
    return [
      {
        id: page.id,
        number: path,
        title: page.title,
        label: page.number ? `${page.number} ${page.title}` : page.title,
        href: `/app/monitoring/${projectId}/pages/page/${page.id}`,
      },
    ];
  });
  // 403 and 404 (no monitoring role, the app switched off) mean there are no pages to show, not a failure.
  const failed = query.isError && !(query.error instanceof ApiError && [403, 404].includes(query.error.status));
  return { items, loading: query.isPending && projectId !== null, failed };
}
