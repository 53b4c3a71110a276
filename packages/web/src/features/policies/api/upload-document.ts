import { type DocumentDetail, documentDetailSchema } from '@portal/shared';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { xhrUpload } from '../../../lib/xhr-upload';
import { policyKey, policyPath } from './keys';

export interface DocumentUpload {
  file: File;
  title?: string;
  number?: string;
  department_id?: number;
  /** One per chosen file, sent again on a retry so the server makes the draft only once. */
  idempotencyKey: string;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * POST .../policy-management/documents/upload (multipart: title, number, department_id, then file; header
 * Idempotency-Key) -> 201 the new draft (200 with the same document when the key was already used).
 */
export function uploadDocument(projectId: string, upload: DocumentUpload): Promise<DocumentDetail> {
  const body = new FormData();
  // The server reads the fields before the file streams in.
  if (upload.title) body.append('title', upload.title);
  if (upload.number) body.append('number', upload.number);
  if (upload.department_id !== undefined) body.append('department_id', String(upload.department_id));
  body.append('file', upload.file);
  return xhrUpload(`${policyPath(projectId)}/documents/upload`, {
    body,
    schema: documentDetailSchema,
    headers: { 'Idempotency-Key': upload.idempotencyKey },
    onProgress: upload.onProgress,
    signal: upload.signal,
  });
}

export function useUploadDocument(projectId: string) {
  return useInvalidatingMutation((upload: DocumentUpload) => uploadDocument(projectId, upload), [policyKey(projectId)]);
}
