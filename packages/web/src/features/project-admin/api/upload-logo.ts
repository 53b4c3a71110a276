import { type logoUploadSchema, type ProjectDetails, projectDetailsSchema } from '@portal/shared';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { useApiMutation } from '../../../lib/api-hooks';
import { projectDetailsKey } from './get-project-details';
import { adminPath, invalidateProject } from './keys';

export type LogoUpload = z.input<typeof logoUploadSchema>;

/** PUT /api/projects/{id}/admin/logo { content_type, data (base64) }: PNG, JPEG or WebP up to 512 KB. */
export function uploadLogo(projectId: string, logo: LogoUpload): Promise<ProjectDetails> {
  return apiFetch(`${adminPath(projectId)}/logo`, { method: 'PUT', body: logo, schema: projectDetailsSchema });
}

export function useUploadLogo(projectId: string) {
  return useApiMutation(
    (logo: LogoUpload) => uploadLogo(projectId, logo),
    (queryClient, details) => {
      queryClient.setQueryData(projectDetailsKey(projectId), details);
      return invalidateProject(queryClient, projectId);
    },
  );
}
