import { usedPageNumbersSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
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
  return apiQuery([...pagesKey(projectId), 'used-numbers'] as const, (signal) => getUsedPageNumbers(projectId, signal));
}

export function useUsedPageNumbers(projectId: string, enabled = true) {
  return useQuery({ ...usedPageNumbersQueryOptions(projectId), enabled });
}
