import { usedPageNumbersSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringPath } from './keys';
import { pagesKey } from './pages-list';

/** GET .../pages/used-numbers: every live page's number (numbers only), for manual numbering. */
export async function getUsedPageNumbers(projectId: string, signal?: AbortSignal): Promise<string[]> {
  const { numbers } = await apiFetch(`${monitoringPath(projectId)}/pages/used-numbers`, {
    signal,
    schema: usedPageNumbersSchema,
  });
  return numbers;
}

export function usedPageNumbersQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: [...pagesKey(projectId), 'used-numbers'] as const,
    queryFn: ({ signal }) => getUsedPageNumbers(projectId, signal),
  });
}

export function useUsedPageNumbers(projectId: string, enabled = true) {
  return useQuery({ ...usedPageNumbersQueryOptions(projectId), enabled });
}
