import type { BrokenReference } from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDocuments, policyReferences, policyVersions } from '../../db/schema/index.js';

/**
 * Links between policies (issue 28): a policy's text links to another by its stable address /p/{projectId}/{number}
 * (absolute or relative). The links of each document's current version are kept in policy_references, refreshed
 * when a version is published, so the policy administrators' dashboard can list the ones that lead nowhere.
 */

const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
/** The stable path, after an optional scheme and host. */
const STABLE_PATH = /^(?:https?:\/\/[^/]+)?\/p\/(\d{1,10})\/([^/?#]{1,180})\/?(?:[?#].*)?$/i;

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};
const unescapeHtml = (value: string) =>
  value
    .replace(/&amp;/g, '&')
    .replace(/&#x2f;|&#47;/gi, '/')
    .replace(/&quot;/g, '"');

/** The policy numbers (upper case, as stored) that `html` links to by this project's stable addresses. */
export function referencedNumbers(html: string, projectId: number): string[] {
  const numbers = new Set<string>();
  for (const match of html.matchAll(HREF)) {
    const href = unescapeHtml((match[1] ?? match[2] ?? '').trim());
    const path = STABLE_PATH.exec(href);
    if (!path || Number(path[1]) !== projectId) continue;
    const number = decode(path[2]!).trim().toUpperCase();
    if (number && number.length <= 60) numbers.add(number);
  }
  return [...numbers].sort();
}

/** Recomputes a document's links from its current version (none without one). Called where a version is published. */
export async function refreshReferences(tx: DbOrTx, projectId: number, documentId: number): Promise<void> {
  const [row] = await tx
    .select({ content: policyVersions.content })
    .from(policyDocuments)
    .innerJoin(policyVersions, eq(policyVersions.id, policyDocuments.currentVersionId))
    .where(and(eq(policyDocuments.projectId, projectId), eq(policyDocuments.id, documentId)));
  const numbers = referencedNumbers(row?.content ?? '', projectId);
  await tx
    .delete(policyReferences)
    .where(and(eq(policyReferences.projectId, projectId), eq(policyReferences.documentId, documentId)));
  if (numbers.length > 0) {
    await tx
      .insert(policyReferences)
      .values(numbers.map((targetNumber) => ({ projectId, documentId, targetNumber })))
      .onConflictDoNothing();
  }
}

/**
 * Policies published before links were recorded: a current version that mentions the project's stable path but has
 * no recorded link yet is read once (afterwards it has rows, or is read again cheaply if its links name nothing).
 */
export async function backfillReferences(db: DbOrTx, projectId: number): Promise<void> {
  const { rows } = await db.execute<{ id: number }>(sql`
    select d.id from policy_documents d
    join policy_versions v on v.id = d.current_version_id and v.project_id = d.project_id
    where d.project_id = ${projectId} and d.status <> 'archived'
      and v.content like ${`%/p/${projectId}/%`}
      and not exists (select 1 from policy_references r where r.project_id = d.project_id and r.document_id = d.id)`);
  for (const row of rows) await refreshReferences(db, projectId, row.id);
}

/**
 * Published policies that link to a number no current policy holds: retired (archived and not reused), held by a
 * policy never published, or unknown. For the dashboard of the policy administrators, who see every policy.
 */
export async function brokenReferences(db: DbOrTx, projectId: number, limit: number): Promise<BrokenReference[]> {
  await backfillReferences(db, projectId);
  const { rows } = await db.execute<{
    id: number;
    number: string | null;
    title: string;
    target_number: string;
    live_unpublished: boolean;
    retired_title: string | null;
  }>(sql`
    select d.id, d.number, d.title, r.target_number,
      exists (select 1 from policy_documents t where t.project_id = r.project_id and upper(t.number) = r.target_number
        and t.status <> 'archived') as live_unpublished,
      (select t.title from policy_documents t where t.project_id = r.project_id and upper(t.number) = r.target_number
        and t.status = 'archived' and t.current_version_id is not null
        order by t.archived_at desc nulls last, t.id desc limit 1) as retired_title
    from policy_references r
    join policy_documents d on d.id = r.document_id and d.project_id = r.project_id
    where r.project_id = ${projectId} and d.status <> 'archived' and d.current_version_id is not null
      and not exists (select 1 from policy_documents t where t.project_id = r.project_id
        and upper(t.number) = r.target_number and t.status <> 'archived' and t.current_version_id is not null)
    order by d.number nulls last, d.title, r.target_number
    limit ${limit}`);
  return rows.map((row) => ({
    source: { id: row.id, number: row.number, title: row.title },
    target_number: row.target_number,
    reason: row.live_unpublished ? 'unpublished' : row.retired_title !== null ? 'retired' : 'missing',
    target_title: row.live_unpublished ? null : row.retired_title,
  }));
}
