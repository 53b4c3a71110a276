import { type PermissionMatrix, permissionMatrixSchema, type permissionMatrixUpdateSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { type PermissionApp, permissionMatrixKey, permissionMatrixPath } from './get-permission-matrix';

export type PermissionMatrixUpdate = z.input<typeof permissionMatrixUpdateSchema>;

/** PUT /super/permissions/{app} { project_id, sections: [{ path, allowed_roles }] } with every row: the new matrix. */
export function savePermissionMatrix(app: PermissionApp, update: PermissionMatrixUpdate): Promise<PermissionMatrix> {
  return apiFetch(permissionMatrixPath(app), { method: 'PUT', body: update, schema: permissionMatrixSchema });
}

export function useSavePermissionMatrix(app: PermissionApp) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: PermissionMatrixUpdate) => savePermissionMatrix(app, update),
    onSuccess: (matrix) => queryClient.setQueryData(permissionMatrixKey(app, matrix.project_id), matrix),
  });
}
