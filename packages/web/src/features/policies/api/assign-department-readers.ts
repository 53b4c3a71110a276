import type { DepartmentRoles } from '@portal/shared';
import { sendDepartmentPeople } from './get-department-assignments';

/**
 * POST .../departments/{departmentId}/assign-readers {user_ids}: the WHOLE list of the department's readers ->
 * the department with its people.
 */
export async function assignDepartmentReaders(
  projectId: string,
  departmentId: number,
  userIds: number[],
): Promise<DepartmentRoles> {
  return sendDepartmentPeople(projectId, departmentId, 'POST', 'assign-readers', { user_ids: userIds });
}

/** DELETE .../departments/{departmentId}/clear-readers: the department has no readers any more. */
export async function clearDepartmentReaders(projectId: string, departmentId: number): Promise<DepartmentRoles> {
  return sendDepartmentPeople(projectId, departmentId, 'DELETE', 'clear-readers');
}
