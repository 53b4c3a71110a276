import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type { DocumentDetail };

export function documentPath(projectId: string, documentId: string | number): string {
  return `${policyPath(projectId)}/documents/${documentId}`;
}

/** One document and everything read about it (versions, compares): all under the project's policy key. */
export function documentKey(projectId: string, documentId: string | number) {
  return [...policyKey(projectId), 'document', String(documentId)] as const;
}

/** GET .../documents/{documentId}: the document, its versions and what the signed-in user may do with it. */
export function getDocument(projectId: string, documentId: string, signal?: AbortSignal): Promise<DocumentDetail> {
  return apiFetch(documentPath(projectId, documentId), { signal, schema: documentDetailSchema });
}

export function documentQueryOptions(projectId: string, documentId: string) {
  return apiQuery(documentKey(projectId, documentId), (signal) => getDocument(projectId, documentId, signal));
}

export function useDocument(projectId: string, documentId: string) {
  return useQuery(documentQueryOptions(projectId, documentId));
}
