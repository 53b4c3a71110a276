import { type InsightDraft, insightDraftSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { monitoringPath } from './keys';

export type { InsightDraft };

/**
 * POST .../pages/{pageId}/insights/draft -> {title, body}: a key-insight text written from the signals of the
 * page's measures. Nothing is saved: the author edits it and saves or publishes it like any other text.
 */
export function draftInsight(projectId: string, pageId: number): Promise<InsightDraft> {
  return apiFetch(`${monitoringPath(projectId)}/pages/${pageId}/insights/draft`, {
    method: 'POST',
    body: {},
    schema: insightDraftSchema,
  });
}

export function useDraftInsight(projectId: string, pageId: number) {
  return useMutation({ mutationFn: () => draftInsight(projectId, pageId) });
}
