import { type logoUploadSchema, type ProjectDetails, projectDetailsSchema } from '@portal/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api';
import { projectDetailsKey } from './get-project-details';
import { adminPath, invalidateProject } from './keys';

export type LogoUpload = z.input<typeof logoUploadSchema>;

/** PUT /api/projects/{id}/admin/logo { content_type, data (base64) }: PNG, JPEG or WebP up to 512 KB. */
export function uploadLogo(projectId: string, logo: LogoUpload): Promise<ProjectDetails> {
  return apiFetch(`${adminPath(projectId)}/logo`, { method: 'PUT', body: logo, schema: projectDetailsSchema });
}

export function useUploadLogo(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (logo: LogoUpload) => uploadLogo(projectId, logo),
    onSuccess: (details) => {
      queryClient.setQueryData(projectDetailsKey(projectId), details);
      return invalidateProject(queryClient, projectId);
    },
  });
}
