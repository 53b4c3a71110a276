import type { DepartmentRoles } from '@portal/shared';
import { sendDepartmentPeople } from './get-department-assignments';

/** POST .../departments/{departmentId}/assign-reviewers {user_ids}: ADDS these reviewers (at least one). */
export async function addDepartmentReviewers(
  projectId: string,
  departmentId: number,
  userIds: number[],
): Promise<DepartmentRoles> {
  return sendDepartmentPeople(projectId, departmentId, 'POST', 'assign-reviewers', { user_ids: userIds });
}

/** POST .../departments/{departmentId}/update-reviewers {user_ids}: the WHOLE list of its reviewers. */
export async function updateDepartmentReviewers(
  projectId: string,
  departmentId: number,
  userIds: number[],
): Promise<DepartmentRoles> {
  return sendDepartmentPeople(projectId, departmentId, 'POST', 'update-reviewers', { user_ids: userIds });
}

/** DELETE .../departments/{departmentId}/remove-all-reviewers: the department has no reviewers any more. */
export async function removeAllDepartmentReviewers(projectId: string, departmentId: number): Promise<DepartmentRoles> {
  return sendDepartmentPeople(projectId, departmentId, 'DELETE', 'remove-all-reviewers');
}
