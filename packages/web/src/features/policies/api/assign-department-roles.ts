import type { AssignRolesBody, DepartmentRoles } from '@portal/shared';
import { sendDepartmentPeople } from './get-department-assignments';

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
  return sendDepartmentPeople(projectId, departmentId, 'POST', 'assign-roles', body);
}

/** DELETE .../departments/{departmentId}/clear-assignments: removes ALL its reviewers, signers and readers. */
export function clearDepartmentAssignments(projectId: string, departmentId: number): Promise<DepartmentRoles> {
  return sendDepartmentPeople(projectId, departmentId, 'DELETE', 'clear-assignments');
}
