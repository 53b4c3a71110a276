import {
  type CrAdjudicateInput,
  type CrAnswerInput,
  type CrAnswersInput,
  type CrAnswersSaved,
  type CrIrrPair,
  type CrIrrProgram,
  type CrMyAssignment,
  type CrMyAssignments,
  type CrReviewForm,
  crAnswersSavedSchema,
  crIrrPairSchema,
  crIrrProgramSchema,
  crMyAssignmentsSchema,
  crReviewFormSchema,
} from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath, invalidateChartReview } from './keys';

export type { CrAnswerInput, CrAnswersSaved, CrIrrPair, CrIrrProgram, CrMyAssignment, CrReviewForm };

export type MyFilter = 'todo' | 'submitted' | 'all';

export function reviewsKey(projectId: string) {
  return [...chartReviewKey(projectId), 'reviews'] as const;
}

/** GET .../me/assignments: my reviews, overdue first; `todo` (not submitted) or `submitted`. */
export function getMyAssignments(projectId: string, filter: MyFilter, signal?: AbortSignal): Promise<CrMyAssignments> {
  const query = filter === 'all' ? '' : `?status=${filter}`;
  return apiFetch(`${chartReviewPath(projectId)}/me/assignments${query}`, { signal, schema: crMyAssignmentsSchema });
}

export function myAssignmentsQueryOptions(projectId: string, filter: MyFilter) {
  return apiQuery([...reviewsKey(projectId), 'mine', filter] as const, (signal) =>
    getMyAssignments(projectId, filter, signal),
  );
}

export function useMyAssignments(projectId: string, filter: MyFilter) {
  return useQuery(myAssignmentsQueryOptions(projectId, filter));
}

/** GET .../assignments/{id}: the review form with my saved answers and what I may do. */
export function getReviewForm(projectId: string, assignmentId: number, signal?: AbortSignal): Promise<CrReviewForm> {
  return apiFetch(`${chartReviewPath(projectId)}/assignments/${assignmentId}`, { signal, schema: crReviewFormSchema });
}

export function reviewFormKey(projectId: string, assignmentId: number) {
  return [...reviewsKey(projectId), 'form', assignmentId] as const;
}

export function reviewFormQueryOptions(projectId: string, assignmentId: number) {
  return queryOptions({
    queryKey: reviewFormKey(projectId, assignmentId),
    queryFn: ({ signal }) => getReviewForm(projectId, assignmentId, signal),
    // Autosave keeps the form; a refetch in the background would overwrite what is being typed.
    refetchOnWindowFocus: false,
  });
}

export function useReviewForm(projectId: string, assignmentId: number | null) {
  return useQuery({ ...reviewFormQueryOptions(projectId, assignmentId ?? 0), enabled: assignmentId !== null });
}

/** PUT .../assignments/{id}/answers: the changed answers on `version` -> the new version (409 when stale). */
export function saveAnswers(projectId: string, assignmentId: number, body: CrAnswersInput): Promise<CrAnswersSaved> {
  return apiFetch(`${chartReviewPath(projectId)}/assignments/${assignmentId}/answers`, {
    method: 'PUT',
    body,
    schema: crAnswersSavedSchema,
  });
}

function useFormMutation<T>(projectId: string, assignmentId: number, call: (body: T) => Promise<CrReviewForm>) {
  return useApiMutation(call, (queryClient, form) => {
    queryClient.setQueryData(reviewFormKey(projectId, assignmentId), form);
    void queryClient.invalidateQueries({ queryKey: [...reviewsKey(projectId), 'mine'] });
    void invalidateChartReview(queryClient, projectId);
  });
}

/** POST .../assignments/{id}/submit -> the form, submitted (400 lists unanswered questions as `answers.<id>`). */
export function useSubmitReview(projectId: string, assignmentId: number) {
  return useFormMutation(projectId, assignmentId, () =>
    apiFetch(`${chartReviewPath(projectId)}/assignments/${assignmentId}/submit`, {
      method: 'POST',
      schema: crReviewFormSchema,
    }),
  );
}

/** POST .../assignments/{id}/return {reason}: back to its reviewer. */
export function useReturnReview(projectId: string, assignmentId: number) {
  return useFormMutation(projectId, assignmentId, (reason: string) =>
    apiFetch(`${chartReviewPath(projectId)}/assignments/${assignmentId}/return`, {
      method: 'POST',
      body: { reason },
      schema: crReviewFormSchema,
    }),
  );
}

/** POST .../assignments/{id}/reassign {reviewer_id}: to another reviewer before submission. */
export function useReassignReview(projectId: string, assignmentId: number) {
  return useFormMutation(projectId, assignmentId, (reviewerId: number) =>
    apiFetch(`${chartReviewPath(projectId)}/assignments/${assignmentId}/reassign`, {
      method: 'POST',
      body: { reviewer_id: reviewerId },
      schema: crReviewFormSchema,
    }),
  );
}

const revealSchema = z.object({ encounter_ref: z.string() });

/** POST .../cases/{id}/reveal {reason} -> the encounter reference (logged with the reason). */
export function revealEncounterRef(projectId: string, caseId: number, reason: string): Promise<string> {
  return apiFetch(`${chartReviewPath(projectId)}/cases/${caseId}/reveal`, {
    method: 'POST',
    body: { reason },
    schema: revealSchema,
  }).then((answer) => answer.encounter_ref);
}

// ------------------------------------------------------------------------------------------------ reliability

/** GET .../programs/{id}/irr?period: second reviews and reliability per question. */
export function irrProgramQueryOptions(projectId: string, programId: number, period: string | null) {
  return apiQuery([...reviewsKey(projectId), 'irr', programId, period ?? 'all'] as const, (signal) =>
    apiFetch(`${chartReviewPath(projectId)}/programs/${programId}/irr${period ? `?period=${period}` : ''}`, {
      signal,
      schema: crIrrProgramSchema,
    }),
  );
}

export function useIrrProgram(projectId: string, programId: number | null, period: string | null) {
  return useQuery({ ...irrProgramQueryOptions(projectId, programId ?? 0, period), enabled: programId !== null });
}

export function irrPairKey(projectId: string, pairId: number) {
  return [...reviewsKey(projectId), 'pair', pairId] as const;
}

/** GET .../irr/{pairId}: the disagreeing questions side by side. */
export function useIrrPair(projectId: string, pairId: number | null) {
  return useQuery({
    queryKey: irrPairKey(projectId, pairId ?? 0),
    queryFn: ({ signal }) =>
      apiFetch(`${chartReviewPath(projectId)}/irr/${pairId}`, { signal, schema: crIrrPairSchema }),
    enabled: pairId !== null,
  });
}

/** POST .../irr/{pairId}/adjudicate {final}: the final answer of every disagreeing question. */
export function useAdjudicate(projectId: string, pairId: number) {
  return useApiMutation(
    (body: CrAdjudicateInput) =>
      apiFetch(`${chartReviewPath(projectId)}/irr/${pairId}/adjudicate`, {
        method: 'POST',
        body,
        schema: crIrrPairSchema,
      }),
    (queryClient, pair: CrIrrPair) => {
      queryClient.setQueryData(irrPairKey(projectId, pairId), pair);
      void invalidateChartReview(queryClient, projectId);
    },
  );
}
