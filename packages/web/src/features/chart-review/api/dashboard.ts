import {
  type CrDashboard,
  type CrDashboardList,
  type CrDashboardProgram,
  crDashboardListSchema,
  crDashboardSchema,
} from '@portal/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { chartReviewKey, chartReviewPath } from './keys';

export type { CrDashboard, CrDashboardList, CrDashboardProgram };

/** Every dashboard query of a project (a review submitted elsewhere makes them all stale). */
export function dashboardKey(projectId: string) {
  return [...chartReviewKey(projectId), 'dashboard'] as const;
}

/** GET .../dashboard: every programme with its latest period's headline figures. */
export function getDashboardList(projectId: string, signal?: AbortSignal): Promise<CrDashboardList> {
  return apiFetch(`${chartReviewPath(projectId)}/dashboard`, { signal, schema: crDashboardListSchema });
}

export function dashboardListQueryOptions(projectId: string) {
  return apiQuery([...dashboardKey(projectId), 'list'] as const, (signal) => getDashboardList(projectId, signal));
}

export function useDashboardList(projectId: string) {
  return useQuery(dashboardListQueryOptions(projectId));
}

/** GET .../programs/{id}/dashboard?period=: one programme's period (the latest with a sample when none is named). */
export function getProgramDashboard(
  projectId: string,
  programId: number,
  period: string | null,
  signal?: AbortSignal,
): Promise<CrDashboard> {
  const query = period ? `?${new URLSearchParams({ period })}` : '';
  return apiFetch(`${chartReviewPath(projectId)}/programs/${programId}/dashboard${query}`, {
    signal,
    schema: crDashboardSchema,
  });
}

export function programDashboardQueryOptions(projectId: string, programId: number, period: string | null) {
  return apiQuery([...dashboardKey(projectId), 'program', programId, period] as const, (signal) =>
    getProgramDashboard(projectId, programId, period, signal),
  );
}

/** Keeps the previous period on screen while the next one loads (the picker does not blank the page). */
export function useProgramDashboard(projectId: string, programId: number, period: string | null) {
  return useQuery({
    ...programDashboardQueryOptions(projectId, programId, period),
    placeholderData: keepPreviousData,
    enabled: programId > 0,
  });
}

/** The address of the de-identified CSV export of a programme's results over a range of periods (audited). */
export function exportCsvUrl(projectId: string, programId: number, range: { from: string | null; to: string | null }) {
  const params = new URLSearchParams();
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  const query = params.size ? `?${params}` : '';
  return `${chartReviewPath(projectId)}/programs/${programId}/export.csv${query}`;
}
