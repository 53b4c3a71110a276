import { type Department, type departmentPatchSchema, departmentSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { departmentsPath } from './get-departments';
import { invalidatePolicies } from './keys';

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: DepartmentPatch }) => updateDepartment(projectId, id, patch),
    onSuccess: () => invalidatePolicies(queryClient, projectId),
  });
}
