import { type PermissionMatrix, permissionMatrixSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { type PermissionApp, permissionMatrixKey, permissionMatrixPath } from './get-permission-matrix';

/** POST /super/permissions/{app}/reset { project_id }: every section back to the default roles. */
export function resetPermissionMatrix(app: PermissionApp, projectId: number): Promise<PermissionMatrix> {
  return apiFetch(`${permissionMatrixPath(app)}/reset`, {
    method: 'POST',
    body: { project_id: projectId },
    schema: permissionMatrixSchema,
  });
}

export function useResetPermissionMatrix(app: PermissionApp) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: number) => resetPermissionMatrix(app, projectId),
    onSuccess: (matrix) => queryClient.setQueryData(permissionMatrixKey(app, matrix.project_id), matrix),
  });
}
