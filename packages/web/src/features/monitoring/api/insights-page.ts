import { type Insight, type InsightCreate, insightListSchema, insightSchema } from '@portal/shared';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';
import { monitoringKey, monitoringPath } from './keys';

export type { Insight, InsightCreate };

/** Every key-insight query of a project: what a change to an insight makes stale. */
export function insightsKey(projectId: string) {
  return [...monitoringKey(projectId), 'insights'] as const;
}

export function pageInsightsKey(projectId: string, pageId: number) {
  return [...insightsKey(projectId), 'page', pageId] as const;
}

export function invalidateInsights(queryClient: QueryClient, projectId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: insightsKey(projectId) });
}

/** GET .../pages/{pageId}/insights: published ones newest first; drafts too for those who may edit the page. */
export async function getPageInsights(projectId: string, pageId: number, signal?: AbortSignal): Promise<Insight[]> {
  const { insights } = await apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/insights`, {
    signal,
    schema: insightListSchema,
  });
  return insights;
}

export function pageInsightsQueryOptions(projectId: string, pageId: number) {
  return apiQuery(pageInsightsKey(projectId, pageId), (signal) => getPageInsights(projectId, pageId, signal));
}

export function usePageInsights(projectId: string, pageId: number) {
  return useQuery(pageInsightsQueryOptions(projectId, pageId));
}

/** POST .../pages/{pageId}/insights {title, body, status} -> the new insight. */
export function createInsight(projectId: string, pageId: number, input: InsightCreate): Promise<Insight> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/insights`, {
    method: 'POST',
    body: input,
    schema: insightSchema,
  });
}

export function useCreateInsight(projectId: string, pageId: number) {
  return useInvalidatingMutation(
    (input: InsightCreate) => createInsight(projectId, pageId, input),
    [insightsKey(projectId)],
  );
}

/** DELETE .../insights/{insightId} (a soft delete; its history stays). */
export async function deleteInsight(projectId: string, insightId: number): Promise<void> {
  await apiFetch(`${monitoringPath(projectId)}/insights/${insightId}`, { method: 'DELETE' });
}

export function useDeleteInsight(projectId: string) {
  return useInvalidatingMutation((insightId: number) => deleteInsight(projectId, insightId), [insightsKey(projectId)]);
}
