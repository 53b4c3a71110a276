import { type LOGO_TYPES, type SuperProjectDetail, superProjectDetailSchema } from '@portal/shared';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
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
  return useApiMutation(
    (body: LogoUpload) => uploadSuperProjectLogo(id, body),
    (queryClient, project) => storeProject(queryClient, project),
  );
}
