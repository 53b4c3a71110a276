import { type CrPeople, crPeopleSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath } from './keys';

export type CrPerson = CrPeople['people'][number];

/** GET .../people: the project's members with a chart review role (owners, reviewers), sorted by name. */
export async function getPeople(projectId: string, signal?: AbortSignal): Promise<CrPerson[]> {
  const { people } = await apiFetch(`${chartReviewPath(projectId)}/people`, { signal, schema: crPeopleSchema });
  return people;
}

export function peopleQueryOptions(projectId: string) {
  return apiQuery([...chartReviewKey(projectId), 'people'] as const, (signal) => getPeople(projectId, signal));
}

export function useCrPeople(projectId: string) {
  return useQuery(peopleQueryOptions(projectId));
}
