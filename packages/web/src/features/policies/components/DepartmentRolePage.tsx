import type { DepartmentRole } from '@portal/shared';

/** PLACEHOLDER (issue 7, being built): department-reviewers, department-signers, department-readers screens. */
export function DepartmentRolePage(_props: { role: DepartmentRole }) {
  return null;
}
