import { departmentHealthSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { departmentPeopleKey } from './get-department-assignments';
import { policyPath } from './keys';

export type DepartmentHealth = z.infer<typeof departmentHealthSchema>['departments'][number];

/** GET .../healthy-departments: is each department ready to run the workflow, and what is missing. */
export async function getDepartmentHealth(projectId: string, signal?: AbortSignal): Promise<DepartmentHealth[]> {
  const { departments } = await apiFetch(`${policyPath(projectId)}/healthy-departments`, {
    signal,
    schema: departmentHealthSchema,
  });
  return departments;
}

export function departmentHealthQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: [...departmentPeopleKey(projectId), 'health'],
    queryFn: ({ signal }) => getDepartmentHealth(projectId, signal),
  });
}

export function useDepartmentHealth(projectId: string) {
  return useQuery(departmentHealthQueryOptions(projectId));
}
