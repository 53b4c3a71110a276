import { departmentHealthSchema } from '@portal/shared';
import type { z } from 'zod';
import { useDepartmentList } from './get-department-assignments';

export type DepartmentHealth = z.infer<typeof departmentHealthSchema>['departments'][number];

/** GET .../healthy-departments: is each department ready to run the workflow, and what is missing. */
export function useDepartmentHealth(projectId: string) {
  return useDepartmentList(projectId, 'healthy-departments', 'health', departmentHealthSchema);
}
