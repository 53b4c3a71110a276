import { type WorkflowSettings, workflowSettingsSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { invalidatePolicies, policyKey, policyPath } from './keys';

export type { WorkflowSettings };

export function workflowSettingsKey(projectId: string) {
  return [...policyKey(projectId), 'workflow-settings'] as const;
}

function settingsPath(projectId: string): string {
  return `${policyPath(projectId)}/workflow-settings`;
}

/** GET .../workflow-settings: default review interval, signatures required (all/one), self-signing. */
export function getWorkflowSettings(projectId: string, signal?: AbortSignal): Promise<WorkflowSettings> {
  return apiFetch(settingsPath(projectId), { signal, schema: workflowSettingsSchema });
}

/** PUT .../workflow-settings (section admin-dashboard): the whole settings object. */
export function saveWorkflowSettings(projectId: string, settings: WorkflowSettings): Promise<WorkflowSettings> {
  return apiFetch(settingsPath(projectId), { method: 'PUT', body: settings, schema: workflowSettingsSchema });
}

export function workflowSettingsQueryOptions(projectId: string) {
  return apiQuery(workflowSettingsKey(projectId), (signal) => getWorkflowSettings(projectId, signal));
}

export function useWorkflowSettings(projectId: string) {
  return useQuery(workflowSettingsQueryOptions(projectId));
}

/** Saves the settings; documents' workflows carry them too, so every policy query is refreshed. */
export function useSaveWorkflowSettings(projectId: string) {
  return useApiMutation(
    (settings: WorkflowSettings) => saveWorkflowSettings(projectId, settings),
    (queryClient, settings) => {
      queryClient.setQueryData(workflowSettingsKey(projectId), settings);
      return invalidatePolicies(queryClient, projectId);
    },
  );
}
