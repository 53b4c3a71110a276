import { compareSchema } from '@portal/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { documentKey, documentPath } from './get-document';

export type VersionComparison = z.infer<typeof compareSchema>;

export function compareKey(projectId: string, documentId: string, from: number, to: number) {
  return [...documentKey(projectId, documentId), 'compare', from, to] as const;
}

/**
 * GET .../documents/{documentId}/compare?from&to: a redline of two versions (HTML with <ins>/<del>; sanitise it
 * before rendering) and how many insertions and deletions it has.
 */
export function compareVersions(
  projectId: string,
  documentId: string,
  from: number,
  to: number,
  signal?: AbortSignal,
): Promise<VersionComparison> {
  const query = new URLSearchParams({ from: String(from), to: String(to) });
  return apiFetch(`${documentPath(projectId, documentId)}/compare?${query}`, { signal, schema: compareSchema });
}

export function compareQueryOptions(projectId: string, documentId: string, from: number, to: number) {
  return apiQuery(compareKey(projectId, documentId, from, to), (signal) =>
    compareVersions(projectId, documentId, from, to, signal),
  );
}

/** The redline of `from` against `to`; idle until two different versions are picked. */
export function useCompareVersions(projectId: string, documentId: string, from: number | null, to: number | null) {
  return useQuery({
    ...compareQueryOptions(projectId, documentId, from ?? 0, to ?? 0),
    enabled: from !== null && to !== null && from !== to,
    placeholderData: keepPreviousData,
  });
}
