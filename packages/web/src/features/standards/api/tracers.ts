import {
  type StdFindingInput,
  type StdTracer,
  type StdTracerInput,
  stdFindingSchema,
  stdTracerListSchema,
  stdTracerSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';

export type { StdTracer, StdTracerInput };

/** GET /assessments/{id}/tracers */
export function useTracers(projectId: string, assessmentId: number) {
  return useQuery({
    queryKey: [...standardsKey(projectId), 'tracers', assessmentId] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/assessments/${assessmentId}/tracers`, {
        signal,
        schema: stdTracerListSchema,
      }),
  });
}

/** GET /tracers/{id} */
export function useTracer(projectId: string, tracerId: number | null) {
  return useQuery({
    queryKey: [...standardsKey(projectId), 'tracer', tracerId ?? 0] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/tracers/${tracerId}`, { signal, schema: stdTracerSchema }),
    enabled: tracerId !== null,
  });
}

/** POST /assessments/{id}/tracers -> the tracer; every standards query refetched. */
export function useCreateTracer(projectId: string, assessmentId: number) {
  return useInvalidatingMutation(
    (body: StdTracerInput) =>
      apiFetch(`${standardsPath(projectId)}/assessments/${assessmentId}/tracers`, {
        method: 'POST',
        body,
        schema: stdTracerSchema,
      }),
    [standardsKey(projectId)],
  );
}

/** POST /tracers/{id}/findings: a finding from the tracer on one element (its source is "tracer"). */
export function useRecordTracerFinding(projectId: string, tracerId: number) {
  return useInvalidatingMutation(
    ({ reqId, finding }: { reqId: number; finding: Omit<StdFindingInput, 'source'> }) =>
      apiFetch(`${standardsPath(projectId)}/tracers/${tracerId}/findings`, {
        method: 'POST',
        body: { ...finding, req_id: reqId },
        schema: stdFindingSchema,
      }),
    [standardsKey(projectId)],
  );
}
