import {
  type ImportDetail,
  type ImportList,
  type ImportSettings,
  type ImportSummary,
  importDetailSchema,
  importListSchema,
  importSummarySchema,
} from '@portal/shared';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { useApiMutation, useInvalidatingMutation } from '../../../lib/api-hooks';
import { xhrUpload } from '../../../lib/xhr-upload';
import { datasetKey } from './data-datasets';
import { invalidateMonitoring, monitoringKey, monitoringPath } from './keys';

export type { ImportDetail, ImportList, ImportSettings, ImportSummary };

/** How often a committing import is asked for its progress. */
export const COMMIT_POLL_MS = 1000;

export function importsKey(projectId: string, datasetId: number) {
  return [...datasetKey(projectId, datasetId), 'imports'] as const;
}

export function importKey(projectId: string, importId: number) {
  return [...monitoringKey(projectId), 'import', importId] as const;
}

/** GET .../datasets/{id}/imports: the dataset's imports, newest first. */
export function getImports(projectId: string, datasetId: number, signal?: AbortSignal): Promise<ImportList> {
  return apiFetch(`${monitoringPath(projectId)}/datasets/${datasetId}/imports`, { signal, schema: importListSchema });
}

export function useImports(projectId: string, datasetId: number) {
  return useQuery({
    queryKey: importsKey(projectId, datasetId),
    queryFn: ({ signal }) => getImports(projectId, datasetId, signal),
    // An import another person (or this one, in another tab) commits shows its progress here too.
    refetchInterval: (query) =>
      query.state.data?.imports.some((item) => item.status === 'committing') ? COMMIT_POLL_MS * 3 : false,
  });
}

/** GET .../imports/{id}: what was detected, the settings, the preview and, while committing, the progress. */
export function getImport(projectId: string, importId: number, signal?: AbortSignal): Promise<ImportDetail> {
  return apiFetch(`${monitoringPath(projectId)}/imports/${importId}`, { signal, schema: importDetailSchema });
}

/** One import; asked again every second while it is committing. */
export function useImport(projectId: string, importId: number | null) {
  return useQuery({
    queryKey: importKey(projectId, importId ?? 0),
    queryFn: ({ signal }) => getImport(projectId, importId ?? 0, signal),
    enabled: importId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'committing' ? COMMIT_POLL_MS : false),
  });
}

/** Where the browser downloads an import's error report (line, column, value, reason). */
export function importErrorsUrl(projectId: string, importId: number): string {
  return `${monitoringPath(projectId)}/imports/${importId}/errors.csv`;
}

/**
 * POST .../datasets/{id}/imports (multipart field "file"): stores the file and reads its first rows -> the import
 * with what was detected. `onProgress` gets the share sent so far (0 to 1).
 */
export function uploadImport(
  projectId: string,
  datasetId: number,
  file: File,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ImportDetail> {
  const body = new FormData();
  body.append('file', file);
  return xhrUpload(`${monitoringPath(projectId)}/datasets/${datasetId}/imports`, {
    body,
    schema: importDetailSchema,
    onProgress,
    signal,
    errorFallback: 'The file could not be uploaded. Please try again.',
  });
}

/** PUT .../imports/{id}/settings -> the import with the preview, its errors and the refused PHI columns. */
export function saveImportSettings(projectId: string, importId: number, body: ImportSettings): Promise<ImportDetail> {
  return apiFetch(`${monitoringPath(projectId)}/imports/${importId}/settings`, {
    method: 'PUT',
    body,
    schema: importDetailSchema,
  });
}

/** POST .../imports/{id}/commit -> 202 with the import 'committing'; the rows are written in the background. */
export function commitImport(projectId: string, importId: number): Promise<ImportDetail> {
  return apiFetch(`${monitoringPath(projectId)}/imports/${importId}/commit`, {
    method: 'POST',
    schema: importDetailSchema,
  });
}

/** POST .../imports/{id}/rollback: the import's rows go inactive and the rows it replaced come back. */
export function rollbackImport(projectId: string, importId: number): Promise<ImportSummary> {
  return apiFetch(`${monitoringPath(projectId)}/imports/${importId}/rollback`, {
    method: 'POST',
    schema: importSummarySchema,
  });
}

/** DELETE .../imports/{id} (204): discards an import that was never committed (uploaded or failed). */
export async function discardImport(projectId: string, importId: number): Promise<void> {
  await apiFetch(`${monitoringPath(projectId)}/imports/${importId}`, { method: 'DELETE' });
}

function remember(queryClient: QueryClient, projectId: string, detail: ImportDetail) {
  queryClient.setQueryData(importKey(projectId, detail.id), detail);
  return queryClient.invalidateQueries({ queryKey: importsKey(projectId, detail.dataset_id) });
}

export function useUploadImport(projectId: string, datasetId: number) {
  return useApiMutation(
    (input: { file: File; onProgress?: (fraction: number) => void; signal?: AbortSignal }) =>
      uploadImport(projectId, datasetId, input.file, input.onProgress, input.signal),
    (queryClient, detail) => remember(queryClient, projectId, detail),
  );
}

export function useSaveImportSettings(projectId: string, importId: number) {
  return useApiMutation(
    (body: ImportSettings) => saveImportSettings(projectId, importId, body),
    (queryClient, detail) => queryClient.setQueryData(importKey(projectId, detail.id), detail),
  );
}

export function useCommitImport(projectId: string, importId: number) {
  return useApiMutation(
    () => commitImport(projectId, importId),
    (queryClient, detail) => remember(queryClient, projectId, detail),
  );
}

/** Once an import has committed, the dataset's counts, measures and series built on it are stale. */
export function invalidateAfterCommit(queryClient: QueryClient, projectId: string): Promise<void> {
  return invalidateMonitoring(queryClient, projectId);
}

export function useRollbackImport(projectId: string) {
  return useInvalidatingMutation((importId: number) => rollbackImport(projectId, importId), [monitoringKey(projectId)]);
}

export function useDiscardImport(projectId: string, datasetId: number) {
  return useApiMutation(
    (importId: number) => discardImport(projectId, importId),
    (queryClient, _, importId) => {
      queryClient.removeQueries({ queryKey: importKey(projectId, importId) });
      return queryClient.invalidateQueries({ queryKey: importsKey(projectId, datasetId) });
    },
  );
}
