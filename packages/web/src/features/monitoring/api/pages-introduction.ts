import { type MonitoringIntroduction, monitoringIntroductionSchema } from '@portal/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
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
  return queryOptions({
    queryKey: introductionKey(projectId),
    queryFn: ({ signal }) => getIntroduction(projectId, signal),
  });
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (introduction: string) => updateIntroduction(projectId, introduction),
    onSuccess: (answer) => queryClient.setQueryData(introductionKey(projectId), answer),
  });
}
