import { type CrSettings, type CrSettingsInput, crSettingsSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath } from './keys';

export type { CrSettings, CrSettingsInput };

export function settingsKey(projectId: string) {
  return [...chartReviewKey(projectId), 'settings'] as const;
}

/** GET .../settings: the project's chart review settings (defaults on first read) and whether I may change them. */
export function getSettings(projectId: string, signal?: AbortSignal): Promise<CrSettings> {
  return apiFetch(`${chartReviewPath(projectId)}/settings`, { signal, schema: crSettingsSchema });
}

export function settingsQueryOptions(projectId: string) {
  return apiQuery(settingsKey(projectId), (signal) => getSettings(projectId, signal));
}

export function useCrSettings(projectId: string) {
  return useQuery(settingsQueryOptions(projectId));
}

/** PUT .../settings: every setting at once -> the settings as stored. */
export function updateSettings(projectId: string, body: CrSettingsInput): Promise<CrSettings> {
  return apiFetch(`${chartReviewPath(projectId)}/settings`, { method: 'PUT', body, schema: crSettingsSchema });
}

export function useSaveSettings(projectId: string) {
  return useApiMutation(
    (body: CrSettingsInput) => updateSettings(projectId, body),
    (queryClient, settings) => queryClient.setQueryData(settingsKey(projectId), settings),
  );
}
