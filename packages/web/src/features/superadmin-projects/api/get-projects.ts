import { type SuperProjectRow, superProjectListSchema } from '@portal/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { type ProjectListParams, projectListKey } from './keys';

export type { ProjectListParams, SuperProjectRow };
export type SuperProjectList = z.infer<typeof superProjectListSchema>;

/** GET /super/projects?q&status&page&page_size: every project, active or not, paged. */
export function getSuperProjects(params: ProjectListParams, signal?: AbortSignal): Promise<SuperProjectList> {
  const query = new URLSearchParams();
  if (params.q) query.set('q', params.q);
  query.set('status', params.status);
  query.set('page', String(params.page));
  query.set('page_size', String(params.page_size));
  return apiFetch(`/super/projects?${query}`, { signal, schema: superProjectListSchema });
}

export function superProjectsQueryOptions(params: ProjectListParams) {
  return apiQuery(projectListKey(params), (signal) => getSuperProjects(params, signal));
}

/** Keeps the previous page on screen while the next one loads, so the table does not jump. */
export function useSuperProjects(params: ProjectListParams) {
  return useQuery({ ...superProjectsQueryOptions(params), placeholderData: keepPreviousData });
}
