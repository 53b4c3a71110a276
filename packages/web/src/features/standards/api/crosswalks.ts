import {
  type StdCrosswalkImport,
  type StdCrosswalkImported,
  type StdCrosswalkList,
  type StdCrosswalkSet,
  type StdUpgrade,
  stdCreatedSchema,
  stdCrosswalkImportedSchema,
  stdCrosswalkListSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { apiQuery, useInvalidatingMutation } from '../../../lib/api-hooks';

export type { StdCrosswalkImport, StdCrosswalkImported, StdCrosswalkList, StdCrosswalkSet, StdUpgrade };

export function stdCrosswalksKey(projectId: string) {
  return [...standardsKey(projectId), 'crosswalks'] as const;
}

/** GET /crosswalks: the mapping sets the project sees (built in and its own), by source and target framework. */
export function stdCrosswalksQueryOptions(projectId: string) {
  return apiQuery(stdCrosswalksKey(projectId), (signal) =>
    apiFetch(`${standardsPath(projectId)}/crosswalks`, { signal, schema: stdCrosswalkListSchema }),
  );
}

export function useStdCrosswalks(projectId: string, enabled = true) {
  return useQuery({ ...stdCrosswalksQueryOptions(projectId), enabled });
}

/** Whether a crosswalk the project sees links two frameworks, either way round. */
export function linked(sets: readonly StdCrosswalkSet[], a: number, b: number): boolean {
  return sets.some(
    (set) => (set.source.id === a && set.target.id === b) || (set.source.id === b && set.target.id === a),
  );
}

/**
 * POST /crosswalks/import: a crosswalk from CSV, replacing the project's own mappings between the two frameworks
 * -> {mappings}. Element panels show crosswalks, so every standards query of the project is refreshed.
 */
export function useImportCrosswalk(projectId: string) {
  return useInvalidatingMutation(
    (body: StdCrosswalkImport) =>
      apiFetch(`${standardsPath(projectId)}/crosswalks/import`, {
        method: 'POST',
        body,
        schema: stdCrosswalkImportedSchema,
      }),
    [standardsKey(projectId)],
  );
}

/** POST /assessments/{id}/upgrade: a new assessment of another edition, carrying results through a crosswalk -> {id}. */
export function useUpgradeAssessment(projectId: string, assessmentId: number) {
  return useInvalidatingMutation(
    (body: StdUpgrade) =>
      apiFetch(`${standardsPath(projectId)}/assessments/${assessmentId}/upgrade`, {
        method: 'POST',
        body,
        schema: stdCreatedSchema,
      }),
    [standardsKey(projectId)],
  );
}
