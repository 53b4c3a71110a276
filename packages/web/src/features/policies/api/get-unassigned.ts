import { type DocumentRow, documentListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type { DocumentRow };

export function unassignedKey(projectId: string) {
  return [...policyKey(projectId), 'unassigned'] as const;
}

/** GET .../policy-management/documents/unassigned: the documents that have no number yet. */
export function getUnassigned(projectId: string, signal?: AbortSignal): Promise<DocumentRow[]> {
  return apiFetch(`${policyPath(projectId)}/documents/unassigned`, { signal, schema: documentListSchema });
}

export function unassignedQueryOptions(projectId: string) {
  return apiQuery(unassignedKey(projectId), (signal) => getUnassigned(projectId, signal));
}

export function useUnassigned(projectId: string) {
  return useQuery(unassignedQueryOptions(projectId));
}
