import { type LOGO_TYPES, type SuperProjectDetail, superProjectDetailSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { superProjectPath } from './keys';
import { storeProject } from './update-project';

export interface LogoUpload {
  content_type: (typeof LOGO_TYPES)[number];
  /** The file, base64-encoded (no data: prefix). */
  data: string;
}

/** PUT /super/projects/{id}/logo { content_type, data }: PNG, JPEG or WebP, at most 512 KB. */
export function uploadSuperProjectLogo(id: string, body: LogoUpload): Promise<SuperProjectDetail> {
  return apiFetch(`${superProjectPath(id)}/logo`, { method: 'PUT', body, schema: superProjectDetailSchema });
}

export function useUploadSuperProjectLogo(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LogoUpload) => uploadSuperProjectLogo(id, body),
    onSuccess: (project) => storeProject(queryClient, project),
  });
}
