import { type SuperDashboard, superDashboardSchema } from '@portal/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

export type { SuperDashboard };

export const SUPER_DASHBOARD_PATH = '/super/dashboard';
export const SUPER_DASHBOARD_KEY = ['super', 'dashboard'] as const;

/** GET /super/dashboard: counts and the latest audit events. */
export function getSuperDashboard(signal?: AbortSignal): Promise<SuperDashboard> {
  return apiFetch(SUPER_DASHBOARD_PATH, { signal, schema: superDashboardSchema });
}

export function superDashboardQueryOptions() {
  return queryOptions({ queryKey: SUPER_DASHBOARD_KEY, queryFn: ({ signal }) => getSuperDashboard(signal) });
}

export function useSuperDashboard() {
  return useQuery(superDashboardQueryOptions());
}
