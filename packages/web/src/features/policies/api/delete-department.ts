import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { departmentsPath } from './get-departments';
import { policyKey } from './keys';

/** DELETE .../policy-management/departments/{departmentId} -> 204; 409 while it has documents or sub-departments. */
export async function deleteDepartment(projectId: string, departmentId: number): Promise<void> {
  await apiFetch(`${departmentsPath(projectId)}/${departmentId}`, { method: 'DELETE' });
}

export function useDeleteDepartment(projectId: string) {
  return useInvalidatingMutation(
    (departmentId: number) => deleteDepartment(projectId, departmentId),
    [policyKey(projectId)],
  );
}
