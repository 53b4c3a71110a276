import { type Department, departmentListSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type { Department };

export function departmentsPath(projectId: string): string {
  return `${policyPath(projectId)}/departments`;
}

export function departmentsKey(projectId: string) {
  return [...policyKey(projectId), 'departments'] as const;
}

/** GET .../departments: every department of the project (a tree through parent_id) with its document count. */
export async function getDepartments(projectId: string, signal?: AbortSignal): Promise<Department[]> {
  const { departments } = await apiFetch(departmentsPath(projectId), { signal, schema: departmentListSchema });
  return departments;
}

export function departmentsQueryOptions(projectId: string) {
  return apiQuery(departmentsKey(projectId), (signal) => getDepartments(projectId, signal));
}

export function useDepartments(projectId: string) {
  return useQuery(departmentsQueryOptions(projectId));
}
