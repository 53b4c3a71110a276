import { SUGGESTED_SYNONYM_GROUPS, type SynonymGroupInput } from '@portal/shared';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policySearchSynonyms } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { audit } from './policy-common.js';

/**
 * Search synonyms per project (issue 28): groups of words or phrases search treats as one. Terms arrive validated
 * and lower-cased (synonymGroupInputSchema); here a term may belong to one group of the project only.
 */

type Row = typeof policySearchSynonyms.$inferSelect;
const shape = (row: Row) => ({ id: row.id, terms: row.terms, updated_at: row.updatedAt.toISOString() });

/** The project's groups, oldest first (search reads them on every query: a few small rows). */
export async function synonymGroupsOf(db: DbOrTx, projectId: number): Promise<string[][]> {
  const rows = await db
    .select({ terms: policySearchSynonyms.terms })
    .from(policySearchSynonyms)
    .where(eq(policySearchSynonyms.projectId, projectId))
    .orderBy(asc(policySearchSynonyms.id));
  return rows.map((row) => row.terms);
}

const MAX_VARIANTS = 16;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordPattern = (term: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(term)}(?=[^\\p{L}\\p{N}]|$)`, 'u');

/**
 * The query rewritten with each synonym of the words it contains ("hand hygiene audit" -> "handwashing audit", ...),
 * at most MAX_VARIANTS, and the synonyms that were added. Longer terms are tried first so "hand hygiene" wins over a
 * group that only has "hand".
 */
export function expandSynonyms(q: string, groups: readonly (readonly string[])[]) {
  const text = q.toLowerCase().replace(/\s+/g, ' ').trim();
  let variants = [text];
  const added: string[] = [];
  for (const group of groups) {
    const found = [...group].sort((a, b) => b.length - a.length).find((term) => wordPattern(term).test(text));
    if (!found) continue;
    const others = group.filter((term) => term !== found);
    added.push(...others);
    variants = variants.flatMap((variant) => [
      variant,
      ...others.map((other) => variant.replace(wordPattern(found), (_m, before: string) => `${before}${other}`)),
    ]);
    if (variants.length > MAX_VARIANTS) variants = variants.slice(0, MAX_VARIANTS);
  }
  return { variants: [...new Set(variants)].filter((variant) => variant !== text), added };
}

export async function listSynonymGroups(db: DbOrTx, projectId: number) {
  const rows = await db
    .select()
    .from(policySearchSynonyms)
    .where(eq(policySearchSynonyms.projectId, projectId))
    .orderBy(asc(policySearchSynonyms.id));
  return { groups: rows.map(shape) };
}

/** One change at a time per project, so two groups cannot both take the same term. */
const lockSynonyms = (tx: DbOrTx, projectId: number) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext('policy_search_synonyms'), ${projectId})`);

/** A 400 naming the terms another group of the project already has. */
async function refuseTakenTerms(tx: DbOrTx, projectId: number, terms: readonly string[], exceptId?: number) {
  const others = await tx
    .select({ terms: policySearchSynonyms.terms })
    .from(policySearchSynonyms)
    .where(
      and(
        eq(policySearchSynonyms.projectId, projectId),
        sql`${policySearchSynonyms.terms} && ${`{${terms.map((t) => JSON.stringify(t)).join(',')}}`}::text[]`,
        exceptId === undefined ? undefined : ne(policySearchSynonyms.id, exceptId),
      ),
    );
  const taken = terms.filter((term) => others.some((row) => row.terms.includes(term)));
  if (taken.length) {
    const list = taken.map((term) => `"${term}"`).join(', ');
    const message = `${list} ${taken.length === 1 ? 'is' : 'are'} already in another group; a word can be in one group only.`;
    throw new AppError('VALIDATION_FAILED', message, { terms: [message] });
  }
}

export async function createSynonymGroup(db: DbOrTx, actor: PolicyActor, input: SynonymGroupInput, now: Date) {
  return db.transaction(async (tx) => {
    await lockSynonyms(tx, actor.projectId);
    await refuseTakenTerms(tx, actor.projectId, input.terms);
    const [row] = await tx
      .insert(policySearchSynonyms)
      .values({
        projectId: actor.projectId,
        terms: input.terms,
        createdAt: now,
        createdBy: actor.userId,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .returning();
    await audit(
      tx,
      actor,
      'search_synonyms_created',
      { type: 'policy_search_synonyms', id: row!.id },
      { terms: input.terms },
      now,
    );
    return shape(row!);
  });
}

async function groupOf(tx: DbOrTx, projectId: number, id: number) {
  const [row] = await tx
    .select()
    .from(policySearchSynonyms)
    .where(and(eq(policySearchSynonyms.projectId, projectId), eq(policySearchSynonyms.id, id)));
  if (!row) throw notFound('This synonym group no longer exists.');
  return row;
}

export async function updateSynonymGroup(
  db: DbOrTx,
  actor: PolicyActor,
  id: number,
  input: SynonymGroupInput,
  now: Date,
) {
  return db.transaction(async (tx) => {
    await lockSynonyms(tx, actor.projectId);
    const before = await groupOf(tx, actor.projectId, id);
    await refuseTakenTerms(tx, actor.projectId, input.terms, id);
    const [row] = await tx
      .update(policySearchSynonyms)
      .set({ terms: input.terms, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(policySearchSynonyms.projectId, actor.projectId), eq(policySearchSynonyms.id, id)))
      .returning();
    await audit(
      tx,
      actor,
      'search_synonyms_updated',
      { type: 'policy_search_synonyms', id },
      {
        before: before.terms,
        after: input.terms,
        added: input.terms.filter((term) => !before.terms.includes(term)),
        removed: before.terms.filter((term) => !input.terms.includes(term)),
      },
      now,
    );
    return shape(row!);
  });
}

export async function deleteSynonymGroup(db: DbOrTx, actor: PolicyActor, id: number, now: Date) {
  await db.transaction(async (tx) => {
    const row = await groupOf(tx, actor.projectId, id);
    await tx
      .delete(policySearchSynonyms)
      .where(and(eq(policySearchSynonyms.projectId, actor.projectId), eq(policySearchSynonyms.id, id)));
    await audit(
      tx,
      actor,
      'search_synonyms_deleted',
      { type: 'policy_search_synonyms', id },
      { terms: row.terms },
      now,
    );
  });
}

/**
 * "Add the suggested synonyms": each suggested group whose terms no group of the project has yet (a group sharing a
 * term is left out rather than refused), each audited as an ordinary addition.
 */
export async function addSuggestedGroups(db: DbOrTx, actor: PolicyActor, now: Date) {
  await db.transaction(async (tx) => {
    await lockSynonyms(tx, actor.projectId);
    const taken = new Set((await synonymGroupsOf(tx, actor.projectId)).flat());
    for (const terms of SUGGESTED_SYNONYM_GROUPS) {
      if (terms.some((term) => taken.has(term))) continue;
      const [row] = await tx
        .insert(policySearchSynonyms)
        .values({
          projectId: actor.projectId,
          terms: [...terms],
          createdAt: now,
          createdBy: actor.userId,
          updatedAt: now,
          updatedBy: actor.userId,
        })
        .returning({ id: policySearchSynonyms.id });
      await audit(
        tx,
        actor,
        'search_synonyms_created',
        { type: 'policy_search_synonyms', id: row!.id },
        { terms, suggested: true },
        now,
      );
    }
  });
  return listSynonymGroups(db, actor.projectId);
}
