import { projectAdminDashboardSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { adminPath, projectAdminKey } from './keys';

export type AdminDashboard = z.infer<typeof projectAdminDashboardSchema>;

export function adminDashboardKey(projectId: string) {
  return [...projectAdminKey(projectId), 'dashboard'] as const;
}

/** GET /api/projects/{id}/admin/dashboard: members, pending new-user requests, unread contact messages. */
export function getAdminDashboard(projectId: string, signal?: AbortSignal): Promise<AdminDashboard> {
  return apiFetch(`${adminPath(projectId)}/dashboard`, { signal, schema: projectAdminDashboardSchema });
}

export function adminDashboardQueryOptions(projectId: string) {
  return apiQuery(adminDashboardKey(projectId), (signal) => getAdminDashboard(projectId, signal));
}

export function useAdminDashboard(projectId: string) {
  return useQuery(adminDashboardQueryOptions(projectId));
}
