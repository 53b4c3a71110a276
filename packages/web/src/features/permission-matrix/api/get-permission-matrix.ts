import { type PermissionApp, type PermissionMatrix, permissionMatrixSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';

export type { PermissionApp, PermissionMatrix };

export function permissionMatrixPath(app: PermissionApp): string {
  return `/super/permissions/${app}`;
}

export function permissionMatrixKey(app: PermissionApp, projectId: number) {
  return ['super', 'permissions', app, projectId] as const;
}

/** GET /super/permissions/{app}?project={id}: the app's sections (rows) and main roles (columns) for one project. */
export function getPermissionMatrix(
  app: PermissionApp,
  projectId: number,
  signal?: AbortSignal,
): Promise<PermissionMatrix> {
  return apiFetch(`${permissionMatrixPath(app)}?project=${projectId}`, { signal, schema: permissionMatrixSchema });
}

export function permissionMatrixQueryOptions(app: PermissionApp, projectId: number) {
  return apiQuery(permissionMatrixKey(app, projectId), (signal) => getPermissionMatrix(app, projectId, signal));
}

export function usePermissionMatrix(app: PermissionApp, projectId: number | null) {
  return useQuery({ ...permissionMatrixQueryOptions(app, projectId ?? 0), enabled: projectId !== null });
}
