import { documentAttestationsSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { documentKey, documentPath } from './get-document';

export type DocumentAttestations = z.infer<typeof documentAttestationsSchema>;

export function documentAttestationsKey(projectId: string, documentId: string | number) {
  return [...documentKey(projectId, documentId), 'attestations'] as const;
}

/** Where the same report downloads as CSV (a plain link: the browser sends the session cookie). */
export function documentAttestationsCsvUrl(projectId: string, documentId: string | number): string {
  return `${documentPath(projectId, documentId)}/attestations.csv`;
}

/**
 * GET .../documents/{documentId}/attestations (section attestation-reports): who must read the current version
 * and who attested it, with the people who attested without being readers.
 */
export function getDocumentAttestations(
  projectId: string,
  documentId: string | number,
  signal?: AbortSignal,
): Promise<DocumentAttestations> {
  return apiFetch(`${documentPath(projectId, documentId)}/attestations`, {
    signal,
    schema: documentAttestationsSchema,
  });
}

export function documentAttestationsQueryOptions(projectId: string, documentId: string | number) {
  return apiQuery(documentAttestationsKey(projectId, documentId), (signal) =>
    getDocumentAttestations(projectId, documentId, signal),
  );
}

export function useDocumentAttestations(projectId: string, documentId: string | number) {
  return useQuery(documentAttestationsQueryOptions(projectId, documentId));
}
