import { type StdMy, stdMySchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';

export type { StdMy };
export type StdMyElement = StdMy['elements'][number];

/** GET /my: the elements I own across the project's assessments, with my counts. */
export function stdMyQueryOptions(projectId: string) {
  return apiQuery([...standardsKey(projectId), 'my'] as const, (signal) =>
    apiFetch(`${standardsPath(projectId)}/my`, { signal, schema: stdMySchema }),
  );
}

export function useStdMy(projectId: string) {
  return useQuery(stdMyQueryOptions(projectId));
}
