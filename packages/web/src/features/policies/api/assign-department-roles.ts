import { type AssignRolesBody, type DepartmentRoles, departmentRolesSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { departmentPath } from './get-department-assignments';

/**
 * POST .../departments/{departmentId}/assign-roles {reviewer_ids?, signer_ids?, reader_ids?}: each list given
 * REPLACES that role's people -> the department with its people. 400 names the failing items (`signer_ids.2`),
 * 403 a person whose main role may not hold the role, 404 an unknown department.
 */
export function assignDepartmentRoles(
  projectId: string,
  departmentId: number,
  body: AssignRolesBody,
): Promise<DepartmentRoles> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/assign-roles`, {
    method: 'POST',
    body,
    schema: departmentRolesSchema,
  });
}

/** DELETE .../departments/{departmentId}/clear-assignments: removes ALL its reviewers, signers and readers. */
export function clearDepartmentAssignments(projectId: string, departmentId: number): Promise<DepartmentRoles> {
  return apiFetch(`${departmentPath(projectId, departmentId)}/clear-assignments`, {
    method: 'DELETE',
    schema: departmentRolesSchema,
  });
}
