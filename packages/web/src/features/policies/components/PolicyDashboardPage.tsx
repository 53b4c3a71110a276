/** PLACEHOLDER (issue 7, being built): admin-dashboard. */
export function PolicyDashboardPage() {
  return null;
}
