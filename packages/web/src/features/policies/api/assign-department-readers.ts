import { type DepartmentRoles, departmentRolesSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { departmentPath } from './get-department-assignments';

/**
 * POST .../departments/{departmentId}/assign-readers {user_ids}: the WHOLE list of the department's readers ->
 * the department with its people.
 */
export async function assignDepartmentReaders(
  projectId: string,
  departmentId: number,
  userIds: number[],
): Promise<DepartmentRoles> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/assign-readers`, {
    method: 'POST',
    body: { user_ids: userIds },
    schema: departmentRolesSchema,
  });
}

/** DELETE .../departments/{departmentId}/clear-readers: the department has no readers any more. */
export async function clearDepartmentReaders(projectId: string, departmentId: number): Promise<DepartmentRoles> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/clear-readers`, {
    method: 'DELETE',
    schema: departmentRolesSchema,
  });
}
