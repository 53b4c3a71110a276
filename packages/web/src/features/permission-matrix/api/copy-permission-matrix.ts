import { type PermissionMatrix, permissionMatrixSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, fromProjectId }: { projectId: number; fromProjectId: number }) =>
      copyPermissionMatrix(app, projectId, fromProjectId),
    onSuccess: (matrix) => queryClient.setQueryData(permissionMatrixKey(app, matrix.project_id), matrix),
  });
}
