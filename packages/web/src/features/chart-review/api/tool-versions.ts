import {
  type CrPublishInput,
  type CrQuestion,
  type CrQuestionInput,
  type CrQuestionsInput,
  type CrToolVersion,
  crToolVersionSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath, invalidateChartReview } from './keys';

export type { CrQuestion, CrQuestionInput, CrToolVersion };

export function toolVersionKey(projectId: string, versionId: number) {
  return [...chartReviewKey(projectId), 'tool-versions', versionId] as const;
}

/** GET .../tool-versions/{id}: one version with its questions in order and what I may do with it. */
export function getToolVersion(projectId: string, versionId: number, signal?: AbortSignal): Promise<CrToolVersion> {
  return apiFetch(`${chartReviewPath(projectId)}/tool-versions/${versionId}`, { signal, schema: crToolVersionSchema });
}

export function toolVersionQueryOptions(projectId: string, versionId: number) {
  return apiQuery(toolVersionKey(projectId, versionId), (signal) => getToolVersion(projectId, versionId, signal));
}

export function useToolVersion(projectId: string, versionId: number | null) {
  return useQuery({ ...toolVersionQueryOptions(projectId, versionId ?? 0), enabled: versionId !== null });
}

/**
 * PUT .../tool-versions/{id}/questions: the draft's whole ordered question list -> the version. 400 lists every
 * problem at once, keyed `questions.{index}.{field}`.
 */
export function saveQuestions(projectId: string, versionId: number, body: CrQuestionsInput): Promise<CrToolVersion> {
  return apiFetch(`${chartReviewPath(projectId)}/tool-versions/${versionId}/questions`, {
    method: 'PUT',
    body,
    schema: crToolVersionSchema,
  });
}

/** POST .../tool-versions/{id}/publish {note}: the draft becomes the version in use; the previous one retires. */
export function publishVersion(projectId: string, versionId: number, body: CrPublishInput): Promise<CrToolVersion> {
  return apiFetch(`${chartReviewPath(projectId)}/tool-versions/${versionId}/publish`, {
    method: 'POST',
    body,
    schema: crToolVersionSchema,
  });
}

/** DELETE .../tool-versions/{id}: discards a draft (not version 1). */
export async function discardVersion(projectId: string, versionId: number): Promise<void> {
  await apiFetch(`${chartReviewPath(projectId)}/tool-versions/${versionId}`, { method: 'DELETE' });
}

/** Keeps the saved version in the cache (the editor starts from it) and refreshes the tool's lists. */
function useVersionMutation<T>(projectId: string, call: (input: T) => Promise<CrToolVersion>) {
  return useApiMutation(call, (queryClient, version) => {
    queryClient.setQueryData(toolVersionKey(projectId, version.id), version);
    return invalidateChartReview(queryClient, projectId);
  });
}

export function useSaveQuestions(projectId: string, versionId: number) {
  return useVersionMutation(projectId, (questions: CrQuestionInput[]) =>
    saveQuestions(projectId, versionId, { questions }),
  );
}

export function usePublishVersion(projectId: string, versionId: number) {
  return useVersionMutation(projectId, (note: string) => publishVersion(projectId, versionId, { note }));
}

export function useDiscardVersion(projectId: string, versionId: number) {
  return useApiMutation(
    () => discardVersion(projectId, versionId),
    (queryClient) => {
      queryClient.removeQueries({ queryKey: toolVersionKey(projectId, versionId) });
      return invalidateChartReview(queryClient, projectId);
    },
  );
}
