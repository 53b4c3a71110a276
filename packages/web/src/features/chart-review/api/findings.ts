import {
  type CrActionPlanInput,
  type CrFinding,
  type CrFindingInput,
  type CrFindingList,
  type CrFindingMeasures,
  type CrFindingStatus,
  type CrFindingSuggestions,
  crFindingListSchema,
  crFindingMeasuresSchema,
  crFindingSchema,
  crFindingSuggestionsSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation, useInvalidatingMutation } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath, invalidateChartReview } from './keys';

export type { CrActionPlanInput, CrFinding, CrFindingInput, CrFindingList, CrFindingStatus, CrFindingSuggestions };

/** Every findings query of a project: a change to a finding makes all of them stale (and the dashboards). */
export function findingsKey(projectId: string) {
  return [...chartReviewKey(projectId), 'findings'] as const;
}

export interface FindingFilters {
  status: CrFindingStatus | null;
  program: number | null;
}

/** GET .../findings?status=&program=: the project's findings, newest period first, with plan progress. */
export function getFindings(projectId: string, filters: FindingFilters, signal?: AbortSignal): Promise<CrFindingList> {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.program !== null) query.set('program', String(filters.program));
  const search = query.size > 0 ? `?${query}` : '';
  return apiFetch(`${chartReviewPath(projectId)}/findings${search}`, { signal, schema: crFindingListSchema });
}

export function findingsQueryOptions(projectId: string, filters: FindingFilters) {
  return apiQuery([...findingsKey(projectId), 'list', filters] as const, (signal) =>
    getFindings(projectId, filters, signal),
  );
}

export function useFindings(projectId: string, filters: FindingFilters) {
  return useQuery(findingsQueryOptions(projectId, filters));
}

/** GET .../findings/{id}: the finding, its plan, measure and success rule state. */
export function getFinding(projectId: string, findingId: number, signal?: AbortSignal): Promise<CrFinding> {
  return apiFetch(`${chartReviewPath(projectId)}/findings/${findingId}`, { signal, schema: crFindingSchema });
}

export function findingQueryOptions(projectId: string, findingId: number) {
  return apiQuery([...findingsKey(projectId), 'detail', findingId] as const, (signal) =>
    getFinding(projectId, findingId, signal),
  );
}

export function useFinding(projectId: string, findingId: number | null) {
  return useQuery({ ...findingQueryOptions(projectId, findingId ?? 0), enabled: findingId !== null });
}

/** GET .../programs/{id}/finding-suggestions?period=: what falls short in the period without a finding yet. */
export function getFindingSuggestions(
  projectId: string,
  programId: number,
  period: string,
  signal?: AbortSignal,
): Promise<CrFindingSuggestions> {
  return apiFetch(
    `${chartReviewPath(projectId)}/programs/${programId}/finding-suggestions?period=${encodeURIComponent(period)}`,
    { signal, schema: crFindingSuggestionsSchema },
  );
}

export function useFindingSuggestions(projectId: string, programId: number | null, period: string | null) {
  return useQuery({
    queryKey: [...findingsKey(projectId), 'suggestions', programId, period] as const,
    queryFn: ({ signal }) => getFindingSuggestions(projectId, programId ?? 0, period ?? '', signal),
    enabled: programId !== null && period !== null,
  });
}

/** GET .../findings/measures: the project's live monitoring measures a plan may follow. */
export function getFindingMeasures(projectId: string, signal?: AbortSignal): Promise<CrFindingMeasures['measures']> {
  return apiFetch(`${chartReviewPath(projectId)}/findings/measures`, { signal, schema: crFindingMeasuresSchema }).then(
    (body) => body.measures,
  );
}

export function useFindingMeasures(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...findingsKey(projectId), 'measures'] as const,
    queryFn: ({ signal }) => getFindingMeasures(projectId, signal),
    enabled,
  });
}

/** POST .../programs/{id}/findings (201): the server computes the rate and n. */
export function useRecordFinding(projectId: string) {
  return useInvalidatingMutation(
    ({ programId, body }: { programId: number; body: CrFindingInput }) =>
      apiFetch(`${chartReviewPath(projectId)}/programs/${programId}/findings`, {
        method: 'POST',
        body,
        schema: crFindingSchema,
      }),
    [chartReviewKey(projectId)],
  );
}

/** PUT .../findings/{id}/plan: the whole plan -> the finding as stored. */
export function useSavePlan(projectId: string, findingId: number) {
  return useApiMutation(
    (body: CrActionPlanInput) =>
      apiFetch(`${chartReviewPath(projectId)}/findings/${findingId}/plan`, {
        method: 'PUT',
        body,
        schema: crFindingSchema,
      }),
    (queryClient, finding) => {
      queryClient.setQueryData(findingQueryOptions(projectId, findingId).queryKey, finding);
      return invalidateChartReview(queryClient, projectId);
    },
  );
}

/** POST .../findings/{id}/close or /reopen, with a note. */
export function useChangeFindingStatus(projectId: string, findingId: number) {
  return useApiMutation(
    ({ action, note }: { action: 'close' | 'reopen'; note: string }) =>
      apiFetch(`${chartReviewPath(projectId)}/findings/${findingId}/${action}`, {
        method: 'POST',
        body: { note },
        schema: crFindingSchema,
      }),
    (queryClient, finding) => {
      queryClient.setQueryData(findingQueryOptions(projectId, findingId).queryKey, finding);
      return invalidateChartReview(queryClient, projectId);
    },
  );
}
