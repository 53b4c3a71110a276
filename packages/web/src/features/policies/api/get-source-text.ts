import { type SourceText, sourceTextSchema } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { documentPath } from './get-document';
import { versionKey } from './get-version';

export type { SourceText };

/** While the server reads a PDF, its progress is asked for this often. */
export const SOURCE_TEXT_POLL_MS = 2000;

/** GET …/versions/{versionId}/source-text: what the portal read of the version's PDF, and how far it got. */
export function getSourceText(
  projectId: string,
  documentId: string,
  versionId: string | number,
  signal?: AbortSignal,
): Promise<SourceText> {
  return apiFetch(`${documentPath(projectId, documentId)}/versions/${versionId}/source-text`, {
    signal,
    schema: sourceTextSchema,
  });
}

/** The text of a version's PDF, asked again every 2 s while it is queued or being read. */
export function useSourceText(projectId: string, documentId: string, versionId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...versionKey(projectId, documentId, versionId), 'source-text'],
    queryFn: ({ signal }) => getSourceText(projectId, documentId, versionId, signal),
    enabled,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'queued' || state === 'reading' ? SOURCE_TEXT_POLL_MS : false;
    },
  });
}
