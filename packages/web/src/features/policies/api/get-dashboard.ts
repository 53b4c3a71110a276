import { type PolicyDashboard, policyDashboardSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { policyKey, policyPath } from './keys';

export type { PolicyDashboard };

export function dashboardKey(projectId: string) {
  return [...policyKey(projectId), 'admin-dashboard'] as const;
}

/**
 * GET .../admin-dashboard (section admin-dashboard): policies by status, revisions in progress, my task counts,
 * reviews due, attestation per department and recent activity.
 */
export function getDashboard(projectId: string, signal?: AbortSignal): Promise<PolicyDashboard> {
  return apiFetch(`${policyPath(projectId)}/admin-dashboard`, { signal, schema: policyDashboardSchema });
}

export function dashboardQueryOptions(projectId: string) {
  return queryOptions({ queryKey: dashboardKey(projectId), queryFn: ({ signal }) => getDashboard(projectId, signal) });
}

export function useDashboard(projectId: string) {
  return useQuery(dashboardQueryOptions(projectId));
}
