import {
  type StdElement,
  type StdEvidenceInput,
  type StdEvidenceItem,
  type StdEvidenceStatus,
  type StdEvidenceUpdate,
  stdElementSchema,
} from '@portal/shared';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { standardsKey, standardsPath } from '../../../components/standards-links/api';
import { apiFetch } from '../../../lib/api';
import { stdElementKey } from './elements';

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

/** After a change: the element as the server answered it, and the project's other standards queries refetched. */
function afterChange(queryClient: QueryClient, projectId: string, element: StdElement) {
  queryClient.setQueryData(stdElementKey(projectId, element.id), element);
  return queryClient.invalidateQueries({
    queryKey: standardsKey(projectId),
    predicate: (query) => query.queryKey[2] !== 'element' || query.queryKey[3] !== element.id,
  });
}

/** POST /req-assessments/{id}/evidence: a link or a note -> the element with it. */
export function useAddEvidence(projectId: string, reqId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StdEvidenceInput) =>
      apiFetch(`${standardsPath(projectId)}/req-assessments/${reqId}/evidence`, {
        method: 'POST',
        body,
        schema: stdElementSchema,
      }),
    onSuccess: (element) => afterChange(queryClient, projectId, element),
  });
}

/** POST /req-assessments/{id}/evidence/file (multipart: the fields first, then the file; at most 10 MB). */
export function useUploadEvidence(projectId: string, reqId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StdEvidenceFileInput) => {
      const body = new FormData();
      if (input.title) body.append('title', input.title);
      if (input.note) body.append('note', input.note);
      if (input.status) body.append('status', input.status);
      if (input.expires_on) body.append('expires_on', input.expires_on);
      body.append('file', input.file, input.file.name);
      return apiFetch(`${standardsPath(projectId)}/req-assessments/${reqId}/evidence/file`, {
        method: 'POST',
        body,
        schema: stdElementSchema,
      });
    },
    onSuccess: (element) => afterChange(queryClient, projectId, element),
  });
}

/** PUT /evidence/{id}: its title, note, status or expiry -> the element. */
export function useUpdateEvidence(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: StdEvidenceUpdate }) =>
      apiFetch(`${standardsPath(projectId)}/evidence/${id}`, { method: 'PUT', body, schema: stdElementSchema }),
    onSuccess: (element) => afterChange(queryClient, projectId, element),
  });
}

/** DELETE /evidence/{id}: the element is read again (its evidence and history changed). */
export function useDeleteEvidence(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch(`${standardsPath(projectId)}/evidence/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: standardsKey(projectId) }),
  });
}
