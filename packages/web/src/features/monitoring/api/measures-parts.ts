import {
  type AnnotationInput,
  type BenchmarkInput,
  type MeasureDetail,
  measureDetailSchema,
  type PhaseCreate,
  type TargetCreate,
} from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { invalidateMonitoring, monitoringPath } from './keys';
import { measureKey } from './measures-list';

export type { AnnotationInput, BenchmarkInput, PhaseCreate, TargetCreate };

/** One change to a measure's targets, benchmarks, phases or annotations: every call answers the whole measure. */
export interface PartRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  /** Below .../measures/{id}/, e.g. 'targets' or 'benchmarks/4'. */
  path: string;
  body?: unknown;
}

export const partRequests = {
  addTarget: (body: TargetCreate): PartRequest => ({ method: 'POST', path: 'targets', body }),
  deleteTarget: (id: number): PartRequest => ({ method: 'DELETE', path: `targets/${id}` }),
  saveBenchmark: (id: number | null, body: BenchmarkInput): PartRequest =>
    id === null ? { method: 'POST', path: 'benchmarks', body } : { method: 'PUT', path: `benchmarks/${id}`, body },
  deleteBenchmark: (id: number): PartRequest => ({ method: 'DELETE', path: `benchmarks/${id}` }),
  addPhase: (body: PhaseCreate): PartRequest => ({ method: 'POST', path: 'phases', body }),
  deletePhase: (id: number): PartRequest => ({ method: 'DELETE', path: `phases/${id}` }),
  saveAnnotation: (id: number | null, body: AnnotationInput): PartRequest =>
    id === null ? { method: 'POST', path: 'annotations', body } : { method: 'PUT', path: `annotations/${id}`, body },
  deleteAnnotation: (id: number): PartRequest => ({ method: 'DELETE', path: `annotations/${id}` }),
};

export function changeMeasurePart(projectId: string, measureId: number, request: PartRequest): Promise<MeasureDetail> {
  return apiFetch(`${monitoringPath(projectId)}/measures/${measureId}/${request.path}`, {
    method: request.method,
    body: request.body,
    schema: measureDetailSchema,
  });
}

export function useMeasurePart(projectId: string, measureId: number) {
  return useApiMutation(
    (request: PartRequest) => changeMeasurePart(projectId, measureId, request),
    (queryClient, measure) => {
      queryClient.setQueryData(measureKey(projectId, measure.id), measure);
      // Charts and page summaries draw targets, benchmarks, phases and annotations.
      return invalidateMonitoring(queryClient, projectId);
    },
  );
}
