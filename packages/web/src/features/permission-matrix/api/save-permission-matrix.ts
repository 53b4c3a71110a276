import { type PermissionMatrix, permissionMatrixSchema, type permissionMatrixUpdateSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { type PermissionApp, permissionMatrixKey, permissionMatrixPath } from './get-permission-matrix';

export type PermissionMatrixUpdate = z.input<typeof permissionMatrixUpdateSchema>;

/** PUT /super/permissions/{app} { project_id, sections: [{ path, allowed_roles }] } with every row: the new matrix. */
export function savePermissionMatrix(app: PermissionApp, update: PermissionMatrixUpdate): Promise<PermissionMatrix> {
  return apiFetch(permissionMatrixPath(app), { method: 'PUT', body: update, schema: permissionMatrixSchema });
}

export function useSavePermissionMatrix(app: PermissionApp) {
  return useApiMutation(
    (update: PermissionMatrixUpdate) => savePermissionMatrix(app, update),
    (queryClient, matrix) => queryClient.setQueryData(permissionMatrixKey(app, matrix.project_id), matrix),
  );
}
