import {
  type UserImportPreview,
  type UserImportStatus,
  userImportPreviewSchema,
  userImportStatusSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { useApiMutation, useInvalidatingMutation } from '../../../lib/api-hooks';
import { SUPER_DASHBOARD_KEY, SUPER_PROJECTS_KEY, SUPER_USERS_KEY } from './keys';

/** POST /super/users/import/preview: every row of the file checked; nothing is written. */
export function previewImport(csv: string): Promise<UserImportPreview> {
  return apiFetch('/super/users/import/preview', { method: 'POST', body: { csv }, schema: userImportPreviewSchema });
}

/** POST /super/users/import: all rows imported or none; the invitations then go out in the background. */
export function importUsers(csv: string): Promise<UserImportStatus> {
  return apiFetch('/super/users/import', { method: 'POST', body: { csv }, schema: userImportStatusSchema });
}

export const usePreviewImport = () => useApiMutation(previewImport);

export const useImportUsers = () =>
  useInvalidatingMutation(importUsers, [SUPER_USERS_KEY, SUPER_PROJECTS_KEY, SUPER_DASHBOARD_KEY]);

/** An import's invitations sent so far, asked again every second until they are all out. */
export function useImportStatus(id: number | null) {
  return useQuery({
    queryKey: [...SUPER_USERS_KEY, 'import', id],
    queryFn: ({ signal }) => apiFetch(`/super/users/imports/${id}`, { schema: userImportStatusSchema, signal }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.finished ? false : 1000),
  });
}
