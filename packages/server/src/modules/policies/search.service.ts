import type { DocumentStatus, SearchQuery } from '@portal/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { expandSynonyms, synonymGroupsOf } from './synonyms.service.js';
import { listedFor } from './visibility.js';

/**
 * Full-text search (PostgreSQL): titles and numbers weigh most, then the text of each document's searchable version
 * (the current one; a never-published draft for those who see drafts). websearch syntax: words, "a phrase", -word,
 * or. The last word also matches as a prefix while it is being typed; the project's synonym groups widen the words;
 * a number like 1.2 also finds 1.2 and everything below it. When the page of exact matches is not full, titles that
 * look like the words (pg_trgm) follow them: "hand hygeine" still finds Hand hygiene. Snippets mark matches with
 * \u0002...\u0003.
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
/** A prefix shorter than this matches too many words to be useful (and to be fast). */
const PREFIX_MIN = 3;
/** pg_trgm word similarity a title needs to count as a spelling guess ("hand hygeine" ~ "Hand hygiene": 0.58). */
export const TYPO_THRESHOLD = 0.5;
/** How many titles at most are compared for a spelling guess. */
const TYPO_CANDIDATES = 400;

/**
 * The last word of a query being typed, as a safe prefix lexeme (letters and digits only, so nothing of the user's
 * text reaches tsquery syntax), with the words before it; null when the query ends in a space, a quote or an
 * excluded word.
 */
export function prefixPart(q: string): { head: string; prefix: string } | null {
  const match = /(^|[\s"(])([\p{L}\p{N}]+)$/u.exec(q);
  if (!match?.[2] || match[2].length < PREFIX_MIN) return null;
  const head = q.slice(0, match.index + match[1]!.length);
  // Inside an open "phrase" the last word is part of the phrase, not a prefix.
  if ((head.match(/"/g)?.length ?? 0) % 2 === 1) return null;
  return { head: head.trim(), prefix: match[2].toLowerCase() };
}

/** The tsquery of the words, their synonym variants and the last word as a prefix, OR-ed. */
function tsqueryOf(q: string, variants: readonly string[]): SQL {
  const parts = [q, ...variants].map((text) => sql`websearch_to_tsquery('english', ${text})`);
  const typed = prefixPart(q);
  if (typed) {
    // The index holds stems ("isolation" is isol): a word typed past its stem ("isolat") is also tried shortened.
    const { prefix: word } = typed;
    const short = word.length >= 6 ? word.slice(0, Math.max(4, word.length - 3)) : null;
    const prefix = sql`to_tsquery('simple', ${short ? `${word}:* | ${short}:*` : `${word}:*`})`;
    parts.push(typed.head ? sql`(websearch_to_tsquery('english', ${typed.head}) && ${prefix})` : prefix);
  }
  return sql.join(parts, sql` || `);
}

/** The department and the ones below it, of this project. */
const inDepartment = (projectId: number, departmentId: number) => sql`policy_documents.department_id in (
  with recursive tree as (
    select id from policy_departments where id = ${departmentId} and project_id = ${projectId}
    union all
    select d.id from policy_departments d join tree on d.parent_id = tree.id where d.project_id = ${projectId}
  ) select id from tree)`;

type Hit = { id: number; number: string | null; title: string; status: DocumentStatus; rank: number; snippet: string };

export async function searchDocuments(db: DbOrTx, actor: PolicyActor, query: SearchQuery) {
  const archived =
    query.include_archived === 'true' || query.status === 'archived'
      ? sql`true`
      : sql`policy_documents.status <> 'archived'`;
  const filters = [
    sql`policy_documents.project_id = ${actor.projectId}`,
    archived,
    listedFor(actor) ?? sql`true`,
    query.status ? sql`policy_documents.status = ${query.status}` : sql`true`,
    query.department_id ? inDepartment(actor.projectId, query.department_id) : sql`true`,
  ];
  const scope = sql.join(filters, sql` and `);
  const expansion = expandSynonyms(query.q, await synonymGroupsOf(db, actor.projectId));
  const tsquery = tsqueryOf(query.q, expansion.variants);
  const numberLike = /^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$/.test(query.q) ? query.q.toUpperCase() : null;
  const stem = snippetAnchor(query.q);
  const numberMatch = sql`(${numberLike}::text is not null and (policy_documents.number = ${numberLike} or policy_documents.number like ${numberLike} || '.%'))`;
  // A word found in most of a large manual ("patient") would make ranking read every document. Candidates are
  // therefore every title or number match plus the first CANDIDATES text matches (one more of each, to tell that
  // the count stopped); the count is of the candidates, in the same statement.
  const result = await db.execute<Hit & { total: number }>(sql`
    with q as (select ${tsquery} as query),
    candidates as materialized (
      (select policy_documents.id from policy_documents, q where ${scope} and (policy_documents.title_vector @@ q.query or ${numberMatch}) limit ${CANDIDATES + 1})
      union
      (select policy_documents.id from policy_documents, q where ${scope} and policy_documents.search_vector @@ q.query limit ${CANDIDATES + 1})
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
             'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') as snippet,
           (select count(*) from candidates)::int as total
      from hits h, q
     order by h.rank desc, h.title`);
  const rows = result.rows.map(({ total: _total, ...row }) => ({ ...row, rank: Number(row.rank) }));
  const total = result.rows[0]?.total ?? 0;
  const guesses = rows.length < query.limit ? await similarTitles(db, scope, query.q, rows, query.limit) : [];
  return {
    results: [...rows, ...guesses],
    total: Math.min(total, CANDIDATES) + guesses.length,
    total_capped: total > CANDIDATES,
    fuzzy: rows.length === 0 && guesses.length > 0,
    synonyms: expansion.added,
  };
}

/**
 * Titles that look like the words (pg_trgm word similarity on the trigram index of lower(title)), ranked below every
 * exact match: the spelling guesses that fill a page the exact search left short.
 */
async function similarTitles(db: DbOrTx, scope: SQL, q: string, exact: readonly Hit[], limit: number) {
  const words = q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s.-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (words.replace(/[^\p{L}\p{N}]/gu, '').length < PREFIX_MIN) return [];
  const seen = exact.map((hit) => hit.id);
  const below = Math.min(0, ...exact.map((hit) => hit.rank));
  const guesses = await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_THRESHOLD)}, true)`);
    // Words common in titles ("care") make many titles look alike: the likeness is worked out for at most
    // TYPO_CANDIDATES of them, so a vague guess costs no more than a precise one.
    return tx.execute<Hit>(sql`
      select g.id, g.number, g.title, g.status, g.rank, left(d.search_text, 200) as snippet
        from (select c.id, c.number, c.title, c.status, word_similarity(${words}, lower(c.title))::float8 as rank
                from (select policy_documents.id, policy_documents.number, policy_documents.title, policy_documents.status
                        from policy_documents
                       where ${scope} and ${words} <% lower(policy_documents.title)
                         and not (policy_documents.id = any(${`{${seen.join(',')}}`}::int[]))
                       limit ${TYPO_CANDIDATES}) c
               order by rank desc, c.title
               limit ${limit - exact.length}) g
        join policy_documents d on d.id = g.id
       order by g.rank desc, g.title`);
  });
  // Below the last exact match, in their own order of likeness.
  return guesses.rows.map((row) => ({ ...row, rank: below - 1 + Number(row.rank) / 2 }));
}
