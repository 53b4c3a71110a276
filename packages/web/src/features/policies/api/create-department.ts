import { type Department, type departmentInputSchema, departmentSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { departmentsPath } from './get-departments';
import { policyKey } from './keys';

export type NewDepartment = z.input<typeof departmentInputSchema>;

/** POST .../policy-management/departments {name, code, parent_id} -> 201 the department. */
export function createDepartment(projectId: string, department: NewDepartment): Promise<Department> {
  return apiFetch(departmentsPath(projectId), { method: 'POST', body: department, schema: departmentSchema });
}

export function useCreateDepartment(projectId: string) {
  return useInvalidatingMutation(
    (department: NewDepartment) => createDepartment(projectId, department),
    [policyKey(projectId)],
  );
}
