import type { StdEvidenceInput, StdEvidenceItem, StdEvidenceStatus, StdEvidenceUpdate } from '@portal/shared';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { useInvalidatingMutation } from '../../../lib/api-hooks';
import { sendForElement, useElementMutation } from './elements';

export type { StdEvidenceInput, StdEvidenceItem, StdEvidenceUpdate };

/** What a file upload sends besides the file (empty strings are left out). */
export interface StdEvidenceFileInput {
  file: File;
  title: string;
  note: string;
  status: StdEvidenceStatus | null;
  expires_on: string | null;
}

/** Where a file evidence downloads from (a plain link: the server answers it as an attachment). */
export function evidenceFileUrl(projectId: string, evidenceId: number): string {
  return `${standardsPath(projectId)}/evidence/${evidenceId}/file`;
}

/** POST /req-assessments/{id}/evidence: a link or a note -> the element with it. */
export function useAddEvidence(projectId: string, reqId: number) {
  return useElementMutation(projectId, (body: StdEvidenceInput) =>
    sendForElement(projectId, 'POST', `/req-assessments/${reqId}/evidence`, body),
  );
}

/** POST /req-assessments/{id}/evidence/file (multipart: the fields first, then the file; at most 10 MB). */
export function useUploadEvidence(projectId: string, reqId: number) {
  return useElementMutation(projectId, (input: StdEvidenceFileInput) => {
    const body = new FormData();
    if (input.title) body.append('title', input.title);
    if (input.note) body.append('note', input.note);
    if (input.status) body.append('status', input.status);
    if (input.expires_on) body.append('expires_on', input.expires_on);
    body.append('file', input.file, input.file.name);
    return sendForElement(projectId, 'POST', `/req-assessments/${reqId}/evidence/file`, body);
  });
}

/** PUT /evidence/{id}: its title, note, status or expiry -> the element. */
export function useUpdateEvidence(projectId: string) {
  return useElementMutation(projectId, ({ id, body }: { id: number; body: StdEvidenceUpdate }) =>
    sendForElement(projectId, 'PUT', `/evidence/${id}`, body),
  );
}

/** DELETE /evidence/{id}: the element is read again (its evidence and history changed). */
export function useDeleteEvidence(projectId: string) {
  return useInvalidatingMutation(
    (id: number) => apiFetch(`${standardsPath(projectId)}/evidence/${id}`, { method: 'DELETE' }),
    [standardsKey(projectId)],
  );
}
