import {
  type StdFinding,
  type StdFindingInput,
  type StdFindingStatus,
  type StdFindingSummary,
  type StdPlanInput,
  type StdReadiness,
  stdFindingListSchema,
  stdFindingSchema,
  stdReadinessSchema,
} from '@portal/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';

export type { StdFinding, StdFindingInput, StdFindingSummary, StdPlanInput, StdReadiness };

export function stdFindingKey(projectId: string, findingId: number) {
  return [...standardsKey(projectId), 'finding', findingId] as const;
}

/** GET /assessments/{id}/readiness */
export function useReadiness(projectId: string, assessmentId: number | null) {
  return useQuery({
    queryKey: [...standardsKey(projectId), 'readiness', assessmentId ?? 0] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/assessments/${assessmentId}/readiness`, {
        signal,
        schema: stdReadinessSchema,
      }),
    enabled: assessmentId !== null,
  });
}

/** GET /assessments/{id}/findings?status= */
export function useFindings(projectId: string, assessmentId: number | null, status?: StdFindingStatus) {
  return useQuery({
    queryKey: [...standardsKey(projectId), 'findings', assessmentId ?? 0, status ?? 'all'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/assessments/${assessmentId}/findings${status ? `?status=${status}` : ''}`, {
        signal,
        schema: stdFindingListSchema,
      }),
    enabled: assessmentId !== null,
  });
}

/** GET /findings/{id} */
export function useFinding(projectId: string, findingId: number | null) {
  return useQuery({
    queryKey: stdFindingKey(projectId, findingId ?? 0),
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/findings/${findingId}`, { signal, schema: stdFindingSchema }),
    enabled: findingId !== null,
  });
}

/** After any finding change: the finding as answered, and every other standards query (panel, readiness, tree). */
function useFindingChange(projectId: string) {
  const queryClient = useQueryClient();
  return (finding: StdFinding) => {
    queryClient.setQueryData(stdFindingKey(projectId, finding.id), finding);
    return queryClient.invalidateQueries({
      queryKey: standardsKey(projectId),
      predicate: (query) => query.queryKey[2] !== 'finding' || query.queryKey[3] !== finding.id,
    });
  };
}

/** POST /req-assessments/{id}/findings */
export function useCreateFinding(projectId: string, reqId: number) {
  const changed = useFindingChange(projectId);
  return useMutation({
    mutationFn: (body: StdFindingInput) =>
      apiFetch(`${standardsPath(projectId)}/req-assessments/${reqId}/findings`, {
        method: 'POST',
        body,
        schema: stdFindingSchema,
      }),
    onSuccess: changed,
  });
}

/** PUT /findings/{id} (with the version it was read at). */
export function useUpdateFinding(projectId: string, findingId: number) {
  const changed = useFindingChange(projectId);
  return useMutation({
    mutationFn: (body: StdFindingInput & { version: number }) =>
      apiFetch(`${standardsPath(projectId)}/findings/${findingId}`, { method: 'PUT', body, schema: stdFindingSchema }),
    onSuccess: changed,
  });
}

/** PUT /findings/{id}/plan */
export function useSavePlan(projectId: string, findingId: number) {
  const changed = useFindingChange(projectId);
  return useMutation({
    mutationFn: (body: StdPlanInput) =>
      apiFetch(`${standardsPath(projectId)}/findings/${findingId}/plan`, {
        method: 'PUT',
        body,
        schema: stdFindingSchema,
      }),
    onSuccess: changed,
  });
}

/** POST /findings/{id}/close or /reopen with a note. */
export function useCloseFinding(projectId: string, findingId: number, action: 'close' | 'reopen') {
  const changed = useFindingChange(projectId);
  return useMutation({
    mutationFn: (note: string) =>
      apiFetch(`${standardsPath(projectId)}/findings/${findingId}/${action}`, {
        method: 'POST',
        body: { note },
        schema: stdFindingSchema,
      }),
    onSuccess: changed,
  });
}

/** Where the gap report downloads from (a plain link: the browser saves the CSV). */
export function gapReportUrl(projectId: string, assessmentId: number): string {
  return `${standardsPath(projectId)}/assessments/${assessmentId}/gap-report.csv`;
}

/** The gap report as PDF. */
export function gapReportPdfUrl(projectId: string, assessmentId: number): string {
  return `${standardsPath(projectId)}/assessments/${assessmentId}/gap-report.pdf`;
}

/** The survey binder of a chapter, condition, standard or element (PDF). */
export function binderUrl(projectId: string, assessmentId: number, nodeId: number): string {
  return `${standardsPath(projectId)}/assessments/${assessmentId}/binder.pdf?node=${nodeId}`;
}
