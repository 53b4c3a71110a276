import {
  type NumberChangeRow,
  type NumberingMode,
  type NumberingResult,
  type NumberingSettings,
  numberingResultSchema,
  numberingSettingsSchema,
  renumberPreviewSchema,
} from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

export type { NumberChangeRow, NumberingMode, NumberingResult, NumberingSettings };

export function numberingKey(projectId: string) {
  return [...monitoringKey(projectId), 'numbering'] as const;
}

/** GET .../numbering: the mode (auto or manual) and how many pages there are. */
export function getNumbering(projectId: string, signal?: AbortSignal): Promise<NumberingSettings> {
  return apiFetch(`${monitoringPath(projectId)}/numbering`, { signal, schema: numberingSettingsSchema });
}

export function useNumbering(projectId: string) {
  return useQuery(
    queryOptions({ queryKey: numberingKey(projectId), queryFn: ({ signal }) => getNumbering(projectId, signal) }),
  );
}

/** POST .../numbering {mode}: to auto renumbers the whole tree; to manual keeps every number. */
export function setNumberingMode(projectId: string, mode: NumberingMode): Promise<NumberingResult> {
  return apiFetch(`${monitoringPath(projectId)}/numbering`, {
    method: 'POST',
    body: { mode },
    schema: numberingResultSchema,
  });
}

export function useSetNumberingMode(projectId: string) {
  return useInvalidatingMutation(
    (mode: NumberingMode) => setNumberingMode(projectId, mode),
    [monitoringKey(projectId)],
  );
}

/** GET .../numbering/preview: the pages whose number numbering from the tree would change (nothing written). */
export function getRenumberPreview(projectId: string, signal?: AbortSignal): Promise<NumberChangeRow[]> {
  return apiFetch(`${monitoringPath(projectId)}/numbering/preview`, { signal, schema: renumberPreviewSchema });
}

export function useRenumberPreview(projectId: string) {
  return useQuery(
    apiQuery([...numberingKey(projectId), 'preview'] as const, (signal) => getRenumberPreview(projectId, signal)),
  );
}

/** POST .../numbering/apply: numbers every page from the tree now. */
export function applyRenumbering(projectId: string): Promise<NumberingResult> {
  return apiFetch(`${monitoringPath(projectId)}/numbering/apply`, { method: 'POST', schema: numberingResultSchema });
}

export function useApplyRenumbering(projectId: string) {
  return useInvalidatingMutation(() => applyRenumbering(projectId), [monitoringKey(projectId)]);
}
