import { type MainRoleDashboard, mainRoleDashboardSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { peopleRootKey } from '../../../lib/people';
import { monitoringPath } from './keys';

export type { MainRoleDashboard };

export function mainRoleDashboardKey(projectId: string) {
  return [...peopleRootKey('monitoring', projectId), 'dashboard'] as const;
}

/** GET .../main-role-dashboard: per main role its people and their open work; the users without a main role. */
export function getMainRoleDashboard(projectId: string, signal?: AbortSignal): Promise<MainRoleDashboard> {
  return apiFetch(`${monitoringPath(projectId)}/main-role-dashboard`, { signal, schema: mainRoleDashboardSchema });
}

export function mainRoleDashboardQueryOptions(projectId: string) {
  return apiQuery(mainRoleDashboardKey(projectId), (signal) => getMainRoleDashboard(projectId, signal));
}

export function useMainRoleDashboard(projectId: string) {
  return useQuery(mainRoleDashboardQueryOptions(projectId));
}
