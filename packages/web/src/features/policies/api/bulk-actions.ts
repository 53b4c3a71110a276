import {
  BULK_CHUNK,
  type BulkAction,
  type BulkCandidate,
  type BulkResult,
  bulkCandidatesSchema,
  bulkResultSchema,
  bulkSignTokenSchema,
} from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, apiFetch, messageFor } from '../../../lib/api';
import { apiQuery } from '../../../lib/api-hooks';
import { policyKey, policyPath } from './keys';

export type { BulkAction, BulkCandidate, BulkResult };
export type BulkSignToken = z.infer<typeof bulkSignTokenSchema>;
/** The credentials re-entered once for a batch of signatures: the password or an authenticator code. */
export type SigningCredential = { password: string } | { code: string };

export function bulkKey(projectId: string, action: BulkAction) {
  return [...policyKey(projectId), 'bulk', action] as const;
}

function bulkPath(projectId: string, action: BulkAction | 'sign/authorize'): string {
  return `${policyPath(projectId)}/bulk/${action}`;
}

/** GET .../bulk/{action}: the policies the signed-in user may do the action on now, each with a note or null. */
export async function getBulkCandidates(
  projectId: string,
  action: BulkAction,
  signal?: AbortSignal,
): Promise<BulkCandidate[]> {
  const { documents } = await apiFetch(bulkPath(projectId, action), { signal, schema: bulkCandidatesSchema });
  return documents;
}

export function bulkCandidatesQueryOptions(projectId: string, action: BulkAction) {
  return apiQuery(bulkKey(projectId, action), (signal) => getBulkCandidates(projectId, action, signal));
}

export function useBulkCandidates(projectId: string, action: BulkAction) {
  return useQuery(bulkCandidatesQueryOptions(projectId, action));
}

/**
 * POST .../bulk/sign/authorize {document_ids, password | code}: checks the credentials once for the whole
 * selection and answers a batch token good for those policies until `expires_at` (422 on a wrong password or code).
 */
export function authorizeBulkSign(
  projectId: string,
  documentIds: number[],
  credential: SigningCredential,
): Promise<BulkSignToken> {
  return apiFetch(bulkPath(projectId, 'sign/authorize'), {
    method: 'POST',
    body: { document_ids: documentIds, ...credential },
    schema: bulkSignTokenSchema,
  });
}

/** POST .../bulk/{action} {document_ids, batch_token?}: one chunk; each policy on its own, safe to send again. */
export async function postBulkChunk(
  projectId: string,
  action: BulkAction,
  documentIds: number[],
  batchToken?: string,
  signal?: AbortSignal,
): Promise<BulkResult[]> {
  const { results } = await apiFetch(bulkPath(projectId, action), {
    method: 'POST',
    signal,
    body:
      batchToken === undefined ? { document_ids: documentIds } : { document_ids: documentIds, batch_token: batchToken },
    schema: bulkResultSchema,
  });
  return results;
}

/** The selection cut into requests of at most `size` policies, in order. */
export function chunksOf<T>(items: readonly T[], size = BULK_CHUNK): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

export interface BulkRunOptions {
  projectId: string;
  action: BulkAction;
  documentIds: readonly number[];
  /** Signing only: the token of bulk/sign/authorize. */
  batchToken?: string;
  /** After each chunk: its results and how many policies have been answered so far. */
  onChunk?: (results: BulkResult[], answered: number) => void;
  signal?: AbortSignal;
}

export interface BulkRun {
  results: BulkResult[];
  /** The server no longer accepts the batch token (423): the credentials must be entered again. */
  expired: boolean;
}

const CHUNK_FAILED = 'This policy could not be sent. Retry to try again.';
const NO_ANSWER = 'The server did not answer for this policy. Retry to try again.';

/**
 * Sends the selection in chunks of BULK_CHUNK, one after the other, so the screen can show progress. A chunk that
 * fails as a whole (network, 5xx) marks its policies failed and the next chunk goes on: each item is idempotent, so
 * retrying them later is safe. An expired signing batch (423) marks the rest failed and stops.
 */
export async function runBulkInChunks({
  projectId,
  action,
  documentIds,
  batchToken,
  onChunk,
  signal,
}: BulkRunOptions): Promise<BulkRun> {
  const results: BulkResult[] = [];
  const chunks = chunksOf(documentIds);
  for (let index = 0; index < chunks.length; index++) {
    if (signal?.aborted) break;
    const chunk = chunks[index]!;
    let answered: BulkResult[];
    try {
      const answer = await postBulkChunk(projectId, action, chunk, batchToken, signal);
      const byId = new Map(answer.map((result) => [result.document_id, result]));
      answered = chunk.map((id) => byId.get(id) ?? { document_id: id, outcome: 'failed' as const, message: NO_ANSWER });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') break;
      const message = messageFor(error, CHUNK_FAILED);
      if (error instanceof ApiError && error.status === 423) {
        const rest = chunks.slice(index).flat();
        const failed = rest.map((id) => ({ document_id: id, outcome: 'failed' as const, message }));
        results.push(...failed);
        onChunk?.(failed, results.length);
        return { results, expired: true };
      }
      answered = chunk.map((id) => ({ document_id: id, outcome: 'failed' as const, message }));
    }
    results.push(...answered);
    onChunk?.(answered, results.length);
  }
  return { results, expired: false };
}
