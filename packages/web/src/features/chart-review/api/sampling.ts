import {
  type CrDrawInput,
  type CrExcludeResult,
  type CrLockInput,
  type CrReviewerUnits,
  type CrReviewerUnitsInput,
  type CrSample,
  type CrSampleCase,
  type CrSampleList,
  crExcludeResultSchema,
  crReviewerUnitsSchema,
  crSampleListSchema,
  crSampleSchema,
} from '@portal/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useApiMutation } from '../../../lib/api-hooks';
import { xhrUpload } from '../../../lib/xhr-upload';
import { chartReviewKey, chartReviewPath, invalidateChartReview } from './keys';

export type { CrDrawInput, CrLockInput, CrReviewerUnits, CrReviewerUnitsInput, CrSample, CrSampleCase, CrSampleList };

/** Every sampling query of a project (samples and their cases, the reviewers' units). */
export function samplingKey(projectId: string) {
  return [...chartReviewKey(projectId), 'sampling'] as const;
}

export function programSamplesKey(projectId: string, programId: number) {
  return [...samplingKey(projectId), 'program', programId] as const;
}

export function sampleKey(projectId: string, sampleId: number) {
  return [...samplingKey(projectId), 'sample', sampleId] as const;
}

export function reviewerUnitsKey(projectId: string) {
  return [...samplingKey(projectId), 'reviewer-units'] as const;
}

/** GET .../programs/{id}/samples: the programme's samples, newest period first. */
export function getProgramSamples(projectId: string, programId: number, signal?: AbortSignal): Promise<CrSampleList> {
  return apiFetch(`${chartReviewPath(projectId)}/programs/${programId}/samples`, {
    signal,
    schema: crSampleListSchema,
  });
}

export function programSamplesQueryOptions(projectId: string, programId: number) {
  return apiQuery(programSamplesKey(projectId, programId), (signal) => getProgramSamples(projectId, programId, signal));
}

export function useProgramSamples(projectId: string, programId: number) {
  return useQuery(programSamplesQueryOptions(projectId, programId));
}

/** GET .../samples/{id}: provenance, plan, the selected and excluded cases, their reviews once locked. */
export function getSample(projectId: string, sampleId: number, signal?: AbortSignal): Promise<CrSample> {
  return apiFetch(`${chartReviewPath(projectId)}/samples/${sampleId}`, { signal, schema: crSampleSchema });
}

export function useSample(projectId: string, sampleId: number | null) {
  return useQuery({
    queryKey: sampleKey(projectId, sampleId ?? 0),
    queryFn: ({ signal }) => getSample(projectId, sampleId ?? 0, signal),
    enabled: sampleId !== null,
  });
}

/** After a change to a sample: it is shown as the server answered, and every list and dashboard reloads. */
function useSampleChanged(projectId: string) {
  const queryClient = useQueryClient();
  return async (sample: CrSample) => {
    queryClient.setQueryData(sampleKey(projectId, sample.id), sample);
    await invalidateChartReview(queryClient, projectId);
  };
}

/** POST .../programs/{id}/samples (multipart: period_start, then the file) with upload progress. */
export function uploadSampleList(
  projectId: string,
  programId: number,
  input: { periodStart: string; file: File },
  onProgress?: (fraction: number) => void,
): Promise<CrSample> {
  const body = new FormData();
  body.append('period_start', input.periodStart);
  body.append('file', input.file, input.file.name);
  return xhrUpload(`${chartReviewPath(projectId)}/programs/${programId}/samples`, {
    body,
    schema: crSampleSchema,
    onProgress,
    errorFallback: 'The list could not be uploaded. Please try again.',
  });
}

export function useUploadSampleList(projectId: string, programId: number) {
  const changed = useSampleChanged(projectId);
  return useMutation({
    mutationFn: (input: { periodStart: string; file: File; onProgress?: (fraction: number) => void }) =>
      uploadSampleList(projectId, programId, input, input.onProgress),
    onSuccess: changed,
  });
}

/** POST .../samples/{id}/draw: the programme's plan and a new seed unless given. */
export function useDrawSample(projectId: string, sampleId: number) {
  const changed = useSampleChanged(projectId);
  return useMutation({
    mutationFn: (body: CrDrawInput) =>
      apiFetch(`${chartReviewPath(projectId)}/samples/${sampleId}/draw`, {
        method: 'POST',
        body,
        schema: crSampleSchema,
      }),
    onSuccess: changed,
  });
}

/** POST .../cases/{id}/exclude: the sample as it now is and the replacement's case code. */
export function useExcludeCase(projectId: string) {
  const changed = useSampleChanged(projectId);
  return useMutation({
    mutationFn: ({ caseId, reason }: { caseId: number; reason: string }): Promise<CrExcludeResult> =>
      apiFetch(`${chartReviewPath(projectId)}/cases/${caseId}/exclude`, {
        method: 'POST',
        body: { reason },
        schema: crExcludeResultSchema,
      }),
    onSuccess: (result) => changed(result.sample),
  });
}

/** POST .../samples/{id}/lock: assigns the reviews and locks the sample. */
export function useLockSample(projectId: string, sampleId: number) {
  const changed = useSampleChanged(projectId);
  return useMutation({
    mutationFn: (body: CrLockInput) =>
      apiFetch(`${chartReviewPath(projectId)}/samples/${sampleId}/lock`, {
        method: 'POST',
        body,
        schema: crSampleSchema,
      }),
    onSuccess: changed,
  });
}

/** Where the ranked list downloads from (a plain link: same-origin cookies). */
export function rankedListUrl(projectId: string, sampleId: number): string {
  return `${chartReviewPath(projectId)}/samples/${sampleId}/ranked.csv`;
}

/** Where the pull list downloads from; the reason is logged with the download. */
export function pullListUrl(projectId: string, sampleId: number, reason: string): string {
  return `${chartReviewPath(projectId)}/samples/${sampleId}/pull-list.csv?reason=${encodeURIComponent(reason)}`;
}

/** GET .../reviewer-units: who may review, the units each works on, and every programme unit. */
export function getReviewerUnits(projectId: string, signal?: AbortSignal): Promise<CrReviewerUnits> {
  return apiFetch(`${chartReviewPath(projectId)}/reviewer-units`, { signal, schema: crReviewerUnitsSchema });
}

export function useReviewerUnits(projectId: string) {
  return useQuery(apiQuery(reviewerUnitsKey(projectId), (signal) => getReviewerUnits(projectId, signal)));
}

/** PUT .../reviewer-units: every reviewer's units at once. */
export function useSaveReviewerUnits(projectId: string) {
  return useApiMutation(
    (body: CrReviewerUnitsInput) =>
      apiFetch(`${chartReviewPath(projectId)}/reviewer-units`, {
        method: 'PUT',
        body,
        schema: crReviewerUnitsSchema,
      }),
    (queryClient, answer) => queryClient.setQueryData(reviewerUnitsKey(projectId), answer),
  );
}
