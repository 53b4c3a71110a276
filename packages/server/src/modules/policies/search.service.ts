import type { DocumentStatus } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { listedFor } from './visibility.js';

/**
 * Full-text search (PostgreSQL): titles and numbers weigh most, then the text of each document's searchable version
 * (the current one; a never-published draft for those who see drafts). websearch syntax: words, "a phrase", -word,
 * or. A number like 1.2 also finds 1.2 and everything below it. Snippets mark matches with \u0002...\u0003.
 */
/**
 * Where a snippet is cut from: the first searched word, shortened to a rough stem ("touching" -> "touch"), found in
 * the text without PostgreSQL's parser. ts_headline parses all the text it gets (about 0.5 ms per 3 KB), so it gets
 * a 1,200-character window from there instead of whole policies.
 */
export function snippetAnchor(q: string): string {
  const word = q
    .toLowerCase()
    .split(/\s+/)
    .find((term) => !term.startsWith('-') && /[\p{L}\p{N}]/u.test(term) && term !== 'or');
  const letters = (word ?? '').replace(/[^\p{L}\p{N}]/gu, '');
  return letters.slice(0, Math.max(4, letters.length - 3));
}

/** How many matches are ranked and counted at most. */
export const CANDIDATES = 1000;

export async function searchDocuments(
  db: DbOrTx,
  actor: PolicyActor,
  query: { q: string; include_archived?: 'true' | 'false'; limit: number },
) {
  const archived = query.include_archived === 'true' ? sql`true` : sql`policy_documents.status <> 'archived'`;
  const listed = listedFor(actor) ?? sql`true`;
  const numberLike = /^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$/.test(query.q) ? query.q.toUpperCase() : null;
  const stem = snippetAnchor(query.q);
  const numberMatch = sql`(${numberLike}::text is not null and (policy_documents.number = ${numberLike} or policy_documents.number like ${numberLike} || '.%'))`;
  const scope = sql`policy_documents.project_id = ${actor.projectId} and ${archived} and ${listed}`;
  // A word found in most of a large manual ("patient") would make ranking read every document. Candidates are
  // therefore every title or number match plus the first CANDIDATES text matches; counts stop at CANDIDATES too.
  const result = await db.execute<{
    id: number;
    number: string | null;
    title: string;
    status: DocumentStatus;
    rank: number;
    snippet: string;
  }>(sql`
    with q as (select websearch_to_tsquery('english', ${query.q}) as query),
    candidates as (
      (select policy_documents.id from policy_documents, q where ${scope} and (policy_documents.title_vector @@ q.query or ${numberMatch}) limit ${CANDIDATES})
      union
      (select policy_documents.id from policy_documents, q where ${scope} and policy_documents.search_vector @@ q.query limit ${CANDIDATES})
    ),
    hits as (
      select policy_documents.id, policy_documents.number, policy_documents.title, policy_documents.status, policy_documents.search_text,
             ts_rank(policy_documents.search_vector, q.query)
               + case when policy_documents.title_vector @@ q.query then 0.5 else 0 end
               + case when ${numberMatch} then 1 else 0 end as rank
        from candidates c join policy_documents on policy_documents.id = c.id, q
       order by rank desc, policy_documents.title
       limit ${query.limit}
    )
    select h.id, h.number, h.title, h.status, h.rank::float8 as rank,
           ts_headline('english', substr(h.search_text, greatest(1, strpos(lower(h.search_text), ${stem}) - 150), 1200), q.query,
             'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') as snippet
      from hits h, q
     order by h.rank desc, h.title`);
  const counted = await db.execute<{ total: number }>(sql`
    with q as (select websearch_to_tsquery('english', ${query.q}) as query)
    select count(*)::int as total from (
      (select policy_documents.id from policy_documents, q where ${scope} and (policy_documents.title_vector @@ q.query or ${numberMatch}) limit ${CANDIDATES + 1})
      union
      (select policy_documents.id from policy_documents, q where ${scope} and policy_documents.search_vector @@ q.query limit ${CANDIDATES + 1})
    ) c`);
  const rows = result.rows;
  const total = counted.rows[0]?.total ?? 0;
  return {
    results: rows.map((row) => ({ ...row, rank: Number(row.rank) })),
    total: Math.min(total, CANDIDATES),
    total_capped: total > CANDIDATES,
  };
}
