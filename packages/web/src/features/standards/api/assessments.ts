import {
  type StdAssessment,
  type StdAssessmentCreate,
  type StdTree,
  type StdTreeFilter,
  type StdTreeRow,
  stdAssessmentListSchema,
  stdCreatedSchema,
  stdTreeSchema,
} from '@portal/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';

export type { StdAssessment, StdAssessmentCreate, StdTree, StdTreeFilter, StdTreeRow };

export function stdAssessmentsKey(projectId: string) {
  return [...standardsKey(projectId), 'assessments'] as const;
}

/** Every compliance tree of the project (all assessments, filters and searches). */
export function stdTreesKey(projectId: string) {
  return [...standardsKey(projectId), 'tree'] as const;
}

/** GET /assessments: the project's assessments with their counts, score and overdue elements. */
export function stdAssessmentsQueryOptions(projectId: string) {
  return apiQuery(stdAssessmentsKey(projectId), (signal) =>
    apiFetch(`${standardsPath(projectId)}/assessments`, { signal, schema: stdAssessmentListSchema }),
  );
}

export function useStdAssessments(projectId: string) {
  return useQuery(stdAssessmentsQueryOptions(projectId));
}

/** POST /assessments (the /create wizard) -> {id}. */
export function useCreateAssessment(projectId: string) {
  return useInvalidatingMutation(
    (body: StdAssessmentCreate) =>
      apiFetch(`${standardsPath(projectId)}/assessments`, { method: 'POST', body, schema: stdCreatedSchema }),
    [standardsKey(projectId)],
  );
}

/** GET /assessments/{id}/tree?filter=&search=: the compliance tree with roll-ups; the last tree stays while the next loads. */
export function useStdTree(projectId: string, assessmentId: number | null, filter: StdTreeFilter, search: string) {
  return useQuery({
    queryKey: [...stdTreesKey(projectId), assessmentId ?? 0, filter, search] as const,
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ filter, search });
      return apiFetch(`${standardsPath(projectId)}/assessments/${assessmentId}/tree?${query}`, {
        signal,
        schema: stdTreeSchema,
      });
    },
    enabled: assessmentId !== null,
    placeholderData: keepPreviousData,
  });
}
