import { convertResultSchema } from '@portal/shared';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { xhrUpload } from '../../../lib/xhr-upload';
import { policyPath } from './keys';

export type ConvertResult = z.infer<typeof convertResultSchema>;

export interface ConvertOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * POST .../policy-management/documents/convert (multipart `file`, a .docx): the Word text as HTML for a preview,
 * and what could not be carried over. Nothing is saved but the images it contains.
 */
export function convertDocument(projectId: string, file: File, options: ConvertOptions = {}): Promise<ConvertResult> {
  const body = new FormData();
  body.append('file', file);
  return xhrUpload(`${policyPath(projectId)}/documents/convert`, {
    body,
    schema: convertResultSchema,
    onProgress: options.onProgress,
    signal: options.signal,
    errorFallback: 'The document could not be converted. Please try again.',
  });
}

export function useConvertDocument(projectId: string) {
  return useMutation({
    mutationFn: ({ file, ...options }: ConvertOptions & { file: File }) => convertDocument(projectId, file, options),
  });
}
