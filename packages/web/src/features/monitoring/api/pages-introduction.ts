import { type MonitoringIntroduction, monitoringIntroductionSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

export type { MonitoringIntroduction };

export function introductionKey(projectId: string) {
  return [...monitoringKey(projectId), 'introduction'] as const;
}

/** GET .../introduction: the programme overview, whether the user may change it, and the top-level pages. */
export function getIntroduction(projectId: string, signal?: AbortSignal): Promise<MonitoringIntroduction> {
  return apiFetch(`${monitoringPath(projectId)}/introduction`, { signal, schema: monitoringIntroductionSchema });
}

export function introductionQueryOptions(projectId: string) {
  return apiQuery(introductionKey(projectId), (signal) => getIntroduction(projectId, signal));
}

export function useIntroduction(projectId: string) {
  return useQuery(introductionQueryOptions(projectId));
}

/** PUT .../introduction {introduction}: monitoring administrators only. */
export function updateIntroduction(projectId: string, introduction: string): Promise<MonitoringIntroduction> {
  return apiFetch(`${monitoringPath(projectId)}/introduction`, {
    method: 'PUT',
    body: { introduction },
    schema: monitoringIntroductionSchema,
  });
}

export function useUpdateIntroduction(projectId: string) {
  return useApiMutation(
    (introduction: string) => updateIntroduction(projectId, introduction),
    (queryClient, answer) => queryClient.setQueryData(introductionKey(projectId), answer),
  );
}
