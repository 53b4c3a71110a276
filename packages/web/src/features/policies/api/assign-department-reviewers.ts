import { type DepartmentRoles, departmentRolesSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { departmentPath } from './get-department-assignments';

/** POST .../departments/{departmentId}/assign-reviewers {user_ids}: ADDS these reviewers (at least one). */
export async function addDepartmentReviewers(
  projectId: string,
  departmentId: number,
  userIds: number[],
): Promise<DepartmentRoles> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/assign-reviewers`, {
    method: 'POST',
    body: { user_ids: userIds },
    schema: departmentRolesSchema,
  });
}

/** POST .../departments/{departmentId}/update-reviewers {user_ids}: the WHOLE list of its reviewers. */
export async function updateDepartmentReviewers(
  projectId: string,
  departmentId: number,
  userIds: number[],
): Promise<DepartmentRoles> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/update-reviewers`, {
    method: 'POST',
    body: { user_ids: userIds },
    schema: departmentRolesSchema,
  });
}

/** DELETE .../departments/{departmentId}/remove-all-reviewers: the department has no reviewers any more. */
export async function removeAllDepartmentReviewers(projectId: string, departmentId: number): Promise<DepartmentRoles> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/remove-all-reviewers`, {
    method: 'DELETE',
    schema: departmentRolesSchema,
  });
}
