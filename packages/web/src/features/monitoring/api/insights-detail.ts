import {
  type InsightDetail,
  type InsightRevision,
  type InsightUpdate,
  insightDetailSchema,
  insightRevisionsSchema,
} from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { insightsKey, invalidateInsights } from './insights-page';
import { monitoringPath } from './keys';

export type { InsightDetail, InsightRevision, InsightUpdate };

export function insightKey(projectId: string, insightId: number) {
  return [...insightsKey(projectId), 'insight', insightId] as const;
}

/** GET .../insights/{insightId}: the insight with its page (404 when it or its page is hidden or gone). */
export function getInsight(projectId: string, insightId: number, signal?: AbortSignal): Promise<InsightDetail> {
  return apiFetch(`${monitoringPath(projectId)}/insights/${insightId}`, { signal, schema: insightDetailSchema });
}

export function insightQueryOptions(projectId: string, insightId: number) {
  return queryOptions({
    queryKey: insightKey(projectId, insightId),
    queryFn: ({ signal }) => getInsight(projectId, insightId, signal),
    // A stale edit answers 409 on its own; refetching under the editor would only surprise.
    refetchOnWindowFocus: false,
  });
}

export function useInsight(projectId: string, insightId: number) {
  return useQuery(insightQueryOptions(projectId, insightId));
}

/** GET .../insights/{insightId}/revisions: every saved state, newest first. */
export async function getInsightRevisions(
  projectId: string,
  insightId: number,
  signal?: AbortSignal,
): Promise<InsightRevision[]> {
  const { revisions } = await apiFetch(`${monitoringPath(projectId)}/insights/${insightId}/revisions`, {
    signal,
    schema: insightRevisionsSchema,
  });
  return revisions;
}

export function useInsightRevisions(projectId: string, insightId: number) {
  return useQuery({
    queryKey: [...insightKey(projectId, insightId), 'revisions'] as const,
    queryFn: ({ signal }) => getInsightRevisions(projectId, insightId, signal),
  });
}

/** PUT .../insights/{insightId} {version, title?, body?, status?} -> the insight (409 when the version is stale). */
export function updateInsight(projectId: string, insightId: number, input: InsightUpdate): Promise<InsightDetail> {
  return apiFetch(`${monitoringPath(projectId)}/insights/${insightId}`, {
    method: 'PUT',
    body: input,
    schema: insightDetailSchema,
  });
}

export function useUpdateInsight(projectId: string, insightId: number) {
  return useApiMutation(
    (input: InsightUpdate) => updateInsight(projectId, insightId, input),
    (queryClient, insight) => {
      queryClient.setQueryData(insightKey(projectId, insightId), insight);
      return invalidateInsights(queryClient, projectId);
    },
  );
}
