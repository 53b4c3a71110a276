import { type PermissionMatrix, permissionMatrixSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { type PermissionApp, permissionMatrixKey, permissionMatrixPath } from './get-permission-matrix';

/** POST /super/permissions/{app}/copy { project_id, from_project_id }: replaces the project's matrix with another's. */
export function copyPermissionMatrix(
  app: PermissionApp,
  projectId: number,
  fromProjectId: number,
): Promise<PermissionMatrix> {
  return apiFetch(`${permissionMatrixPath(app)}/copy`, {
    method: 'POST',
    body: { project_id: projectId, from_project_id: fromProjectId },
    schema: permissionMatrixSchema,
  });
}

export function useCopyPermissionMatrix(app: PermissionApp) {
  return useApiMutation(
    ({ projectId, fromProjectId }: { projectId: number; fromProjectId: number }) =>
      copyPermissionMatrix(app, projectId, fromProjectId),
    (queryClient, matrix) => queryClient.setQueryData(permissionMatrixKey(app, matrix.project_id), matrix),
  );
}
