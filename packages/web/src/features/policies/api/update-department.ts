import { type Department, type departmentPatchSchema, departmentSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { departmentsPath } from './get-departments';
import { policyKey } from './keys';

export type DepartmentPatch = z.input<typeof departmentPatchSchema>;

/** PATCH .../policy-management/departments/{departmentId} with the changed fields -> the department. */
export function updateDepartment(projectId: string, departmentId: number, patch: DepartmentPatch): Promise<Department> {
  return apiFetch(`${departmentsPath(projectId)}/${departmentId}`, {
    method: 'PATCH',
    body: patch,
    schema: departmentSchema,
  });
}

export function useUpdateDepartment(projectId: string) {
  return useInvalidatingMutation(
    ({ id, patch }: { id: number; patch: DepartmentPatch }) => updateDepartment(projectId, id, patch),
    [policyKey(projectId)],
  );
}
