import { type DocumentRow, type DocumentStatus, documentListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type { DocumentRow };

/** Server-side filters of GET .../documents. Archived documents are left out unless asked for. */
export interface DocumentFilters {
  status?: DocumentStatus;
  department_id?: number;
  text?: string;
  include_archived?: boolean;
}

/** The filters as they go in the key and the query string: empty values dropped, so equal filters share a cache. */
function normalise(filters: DocumentFilters): DocumentFilters {
  const result: DocumentFilters = {};
  if (filters.status) result.status = filters.status;
  if (filters.department_id) result.department_id = filters.department_id;
  const text = filters.text?.trim();
  if (text) result.text = text;
  if (filters.include_archived) result.include_archived = true;
  return result;
}

export function documentsKey(projectId: string, filters: DocumentFilters = {}) {
  return [...policyKey(projectId), 'documents', normalise(filters)] as const;
}

export function documentsPath(projectId: string, filters: DocumentFilters = {}): string {
  const { status, department_id, text, include_archived } = normalise(filters);
  const query = new URLSearchParams();
  if (status) query.set('status', status);
  if (department_id) query.set('department_id', String(department_id));
  if (text) query.set('text', text);
  if (include_archived) query.set('include_archived', 'true');
  const search = query.toString();
  return `${policyPath(projectId)}/documents${search ? `?${search}` : ''}`;
}

/** GET .../documents: every document of the project that matches (not paged; thousands of rows at most). */
export function getDocuments(
  projectId: string,
  filters: DocumentFilters = {},
  signal?: AbortSignal,
): Promise<DocumentRow[]> {
  return apiFetch(documentsPath(projectId, filters), { signal, schema: documentListSchema });
}

export function documentsQueryOptions(projectId: string, filters: DocumentFilters = {}) {
  return apiQuery(documentsKey(projectId, filters), (signal) => getDocuments(projectId, filters, signal));
}

export function useDocuments(projectId: string, filters: DocumentFilters = {}) {
  return useQuery(documentsQueryOptions(projectId, filters));
}
