import { type DocumentWorkflow, documentWorkflowSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { documentKey, documentPath } from './get-document';

export type { DocumentWorkflow };

/** A document's workflow: under the document's key, so anything that refreshes the document refreshes it too. */
export function workflowKey(projectId: string, documentId: string | number) {
  return [...documentKey(projectId, documentId), 'workflow'] as const;
}

/**
 * GET .../documents/{documentId}/workflow: the working and current versions, the requests of the round, the
 * signatures, the history, the signed-in user's attestation, what they may do (`abilities`) and why the version
 * cannot go on (`problems`).
 */
export function getWorkflow(projectId: string, documentId: string | number, signal?: AbortSignal) {
  return apiFetch(`${documentPath(projectId, documentId)}/workflow`, { signal, schema: documentWorkflowSchema });
}

export function workflowQueryOptions(projectId: string, documentId: string | number) {
  return apiQuery(workflowKey(projectId, documentId), (signal) => getWorkflow(projectId, documentId, signal));
}

export function useWorkflow(projectId: string, documentId: string | number) {
  return useQuery(workflowQueryOptions(projectId, documentId));
}
