import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { departmentsPath } from './get-departments';
import { invalidatePolicies } from './keys';

/** DELETE .../policy-management/departments/{departmentId} -> 204; 409 while it has documents or sub-departments. */
export async function deleteDepartment(projectId: string, departmentId: number): Promise<void> {
  await apiFetch(`${departmentsPath(projectId)}/${departmentId}`, { method: 'DELETE' });
}

export function useDeleteDepartment(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (departmentId: number) => deleteDepartment(projectId, departmentId),
    onSuccess: () => invalidatePolicies(queryClient, projectId),
  });
}
