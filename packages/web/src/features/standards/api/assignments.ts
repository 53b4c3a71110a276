import { type StdAssignments, stdAssignmentsSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';

export type { StdAssignments };
export type StdAssignmentRow = StdAssignments['rows'][number];
export type StdAssignablePerson = StdAssignments['people'][number];

export function stdAssignmentsKey(projectId: string, assessmentId: number) {
  return [...standardsKey(projectId), 'assignments', assessmentId] as const;
}

/** GET /assessments/{id}/assignments: chapters and standards with their lead, owners below, and who may be picked. */
export function useStdAssignments(projectId: string, assessmentId: number | null) {
  return useQuery({
    queryKey: stdAssignmentsKey(projectId, assessmentId ?? 0),
    queryFn: ({ signal }) =>
      apiFetch(`${standardsPath(projectId)}/assessments/${assessmentId}/assignments`, {
        signal,
        schema: stdAssignmentsSchema,
      }),
    enabled: assessmentId !== null,
  });
}

/** A lead for a node, and/or an owner for every element below it (left out: kept; null: taken away). */
export interface StdAssignmentChange {
  node_id: number;
  lead_id?: number | null;
  owner_id?: number | null;
}

/**
 * PUT /assessments/{id}/assignments -> the assignments as they now stand. The compliance tree, my elements and the
 * assessments' counts change with owners, so every standards query of the project goes stale.
 */
export function useSetAssignment(projectId: string, assessmentId: number) {
  return useApiMutation(
    (body: StdAssignmentChange) =>
      apiFetch(`${standardsPath(projectId)}/assessments/${assessmentId}/assignments`, {
        method: 'PUT',
        body,
        schema: stdAssignmentsSchema,
      }),
    (queryClient, assignments) => {
      queryClient.setQueryData(stdAssignmentsKey(projectId, assessmentId), assignments);
      return queryClient.invalidateQueries({ queryKey: standardsKey(projectId) });
    },
  );
}
