import { type PolicyVersion, versionSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { documentKey, documentPath } from './get-document';

export type { PolicyVersion };

export function versionKey(projectId: string, documentId: string, versionId: string | number) {
  return [...documentKey(projectId, documentId), 'version', String(versionId)] as const;
}

/** GET .../documents/{documentId}/versions/{versionId}: one version with its content. */
export function getVersion(
  projectId: string,
  documentId: string,
  versionId: string | number,
  signal?: AbortSignal,
): Promise<PolicyVersion> {
  return apiFetch(`${documentPath(projectId, documentId)}/versions/${versionId}`, { signal, schema: versionSchema });
}

export function versionQueryOptions(projectId: string, documentId: string, versionId: string | number) {
  return apiQuery(versionKey(projectId, documentId, versionId), (signal) =>
    getVersion(projectId, documentId, versionId, signal),
  );
}

/** The version, or nothing while `versionId` is null (the caller already holds the content it needs). */
export function useVersion(projectId: string, documentId: string, versionId: string | number | null) {
  return useQuery({ ...versionQueryOptions(projectId, documentId, versionId ?? 0), enabled: versionId !== null });
}
