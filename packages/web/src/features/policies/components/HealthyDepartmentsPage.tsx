/** PLACEHOLDER (issue 7, being built): healthy-departments. */
export function HealthyDepartmentsPage() {
  return null;
}
