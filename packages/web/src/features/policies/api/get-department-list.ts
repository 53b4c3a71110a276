import { type Department, departmentListSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { policyKey, policyPath } from './keys';

export type { Department };

export function departmentsPath(projectId: string): string {
  return `${policyPath(projectId)}/departments`;
}

/** Its own key (not 'departments'): the cached value is this module's array, whatever other screens cache. */
export function departmentListKey(projectId: string) {
  return [...policyKey(projectId), 'department-list'] as const;
}

/** GET .../policy-management/departments: every department of the project with its document count. */
export async function getDepartmentList(projectId: string, signal?: AbortSignal): Promise<Department[]> {
  const { departments } = await apiFetch(departmentsPath(projectId), { signal, schema: departmentListSchema });
  return departments;
}

export function departmentListQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: departmentListKey(projectId),
    queryFn: ({ signal }) => getDepartmentList(projectId, signal),
  });
}

export function useDepartmentList(projectId: string) {
  return useQuery(departmentListQueryOptions(projectId));
}
