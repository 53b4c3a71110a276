import { type DocumentStatus, searchResultSchema } from '@portal/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { policyKey, policyPath } from './keys';

export type SearchResults = z.infer<typeof searchResultSchema>;
export type SearchResult = SearchResults['results'][number];

export interface SearchParams {
  q: string;
  include_archived?: boolean;
  /** Only this department and those below it. */
  department_id?: number | null;
  /** Only documents in this status (drafts are found by those who see them). */
  status?: DocumentStatus | null;
  /** 1 to 50 (the server's default is 20). */
  limit?: number;
}

export function searchKey(
  projectId: string,
  { q, include_archived = false, department_id = null, status = null, limit }: SearchParams,
) {
  return [...policyKey(projectId), 'search', { q: q.trim(), include_archived, department_id, status, limit }] as const;
}

export function searchPath(
  projectId: string,
  { q, include_archived, department_id, status, limit }: SearchParams,
): string {
  const query = new URLSearchParams({ q: q.trim() });
  if (include_archived) query.set('include_archived', 'true');
  if (department_id) query.set('department_id', String(department_id));
  if (status) query.set('status', status);
  if (limit) query.set('limit', String(limit));
  return `${policyPath(projectId)}/search?${query.toString()}`;
}

/** GET .../search: documents ranked by how well their text matches; snippets mark the matches. */
export function searchDocuments(projectId: string, params: SearchParams, signal?: AbortSignal): Promise<SearchResults> {
  return apiFetch(searchPath(projectId, params), { signal, schema: searchResultSchema });
}

export function searchQueryOptions(projectId: string, params: SearchParams) {
  return queryOptions({
    queryKey: searchKey(projectId, params),
    queryFn: ({ signal }) => searchDocuments(projectId, params, signal),
    // Nothing is asked for until there are words to look for.
    enabled: params.q.trim() !== '',
  });
}

/** The results stay on screen while a changed search loads (no flash of the loading state between words). */
export function useSearchDocuments(projectId: string, params: SearchParams) {
  return useQuery({ ...searchQueryOptions(projectId, params), placeholderData: keepPreviousData });
}
