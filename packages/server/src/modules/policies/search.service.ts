import type { DocumentStatus } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type PolicyActor, seesDrafts } from '../../policies/policy-management.js';

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
  const archived = query.include_archived === 'true' ? sql`true` : sql`d.status <> 'archived'`;
  const visible = seesDrafts(actor) ? sql`true` : sql`d.current_version_id is not null`;
  const numberLike = /^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$/.test(query.q) ? query.q.toUpperCase() : null;
  const stem = snippetAnchor(query.q);
  const numberMatch = sql`(${numberLike}::text is not null and (d.number = ${numberLike} or d.number like ${numberLike} || '.%'))`;
  const scope = sql`d.project_id = ${actor.projectId} and ${archived} and ${visible}`;
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
      (select d.id from policy_documents d, q where ${scope} and (d.title_vector @@ q.query or ${numberMatch}) limit ${CANDIDATES})
      union
      (select d.id from policy_documents d, q where ${scope} and d.search_vector @@ q.query limit ${CANDIDATES})
    ),
    hits as (
      select d.id, d.number, d.title, d.status, d.search_text,
             ts_rank(d.search_vector, q.query)
               + case when d.title_vector @@ q.query then 0.5 else 0 end
               + case when ${numberMatch} then 1 else 0 end as rank
        from candidates c join policy_documents d on d.id = c.id, q
       order by rank desc, d.title
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
      (select d.id from policy_documents d, q where ${scope} and (d.title_vector @@ q.query or ${numberMatch}) limit ${CANDIDATES + 1})
      union
      (select d.id from policy_documents d, q where ${scope} and d.search_vector @@ q.query limit ${CANDIDATES + 1})
    ) c`);
  const rows = result.rows;
  const total = counted.rows[0]?.total ?? 0;
  return {
    results: rows.map((row) => ({ ...row, rank: Number(row.rank) })),
    total: Math.min(total, CANDIDATES),
    total_capped: total > CANDIDATES,
  };
}
