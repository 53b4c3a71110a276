import { type PermissionMatrix, permissionMatrixSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
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
  return useApiMutation(
    (projectId: number) => resetPermissionMatrix(app, projectId),
    (queryClient, matrix) => queryClient.setQueryData(permissionMatrixKey(app, matrix.project_id), matrix),
  );
}
