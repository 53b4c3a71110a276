import { archiveSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type PolicyArchive = z.infer<typeof archiveSchema>;
export type ArchivedDocument = PolicyArchive['documents'][number];
export type EarlierVersion = PolicyArchive['versions'][number];

export function archiveKey(projectId: string) {
  return [...policyKey(projectId), 'archive'] as const;
}

/** GET .../archive: the archived documents and the superseded versions of every document. */
export function getArchive(projectId: string, signal?: AbortSignal): Promise<PolicyArchive> {
  return apiFetch(`${policyPath(projectId)}/archive`, { signal, schema: archiveSchema });
}

export function archiveQueryOptions(projectId: string) {
  return apiQuery(archiveKey(projectId), (signal) => getArchive(projectId, signal));
}

export function useArchive(projectId: string) {
  return useQuery(archiveQueryOptions(projectId));
}
