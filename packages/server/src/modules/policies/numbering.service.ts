import {
  compareNumbers,
  departmentChapter,
  type NumberingScheme,
  type NumberingUpdate,
  nextPolicyNumber,
  numberProblem,
  planMove,
} from '@portal/shared';
import { and, count, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDepartments, policyDocuments, policyNumbering } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError } from '../../lib/errors.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { liveNumbers, loadScheme, recordNumberChange } from './documents.service.js';
import { audit } from './policy-common.js';

/** The numbering scheme, number assignment and renumbering by moves. Numbers are unique among live documents. */

const live = ne(policyDocuments.status, 'archived');

export async function numberingOverview(db: DbOrTx, projectId: number) {
  const [counts] = await db
    .select({
      used: sql<number>`count(${policyDocuments.number})::int`,
      unassigned: sql<number>`(count(*) - count(${policyDocuments.number}))::int`,
    })
    .from(policyDocuments)
    .where(and(eq(policyDocuments.projectId, projectId), live));
  return {
    scheme: await loadScheme(db, projectId),
    used_count: counts?.used ?? 0,
    unassigned_count: counts?.unassigned ?? 0,
  };
}

/**
 * The live numbers of the project, and the chapter each department's policies are numbered in: what the numbering and
 * conversion screens suggest a new number from (newPolicyParent).
 */
export async function usedNumbers(
  db: DbOrTx,
  projectId: number,
): Promise<{ numbers: string[]; chapters: { department_id: number; chapter: string }[] }> {
  const { used, byDepartment } = await numbersByDepartment(db, projectId);
  const chapters = [...byDepartment]
    .map(([departmentId, numbers]) => ({ department_id: departmentId, chapter: departmentChapter(numbers) }))
    .filter((row): row is { department_id: number; chapter: string } => row.chapter !== null)
    .sort((a, b) => a.department_id - b.department_id);
  return { numbers: used, chapters };
}

/** The live numbers of the project, and those of each department's policies (what nextPolicyNumber reads). */
export async function numbersByDepartment(
  db: DbOrTx,
  projectId: number,
): Promise<{ used: string[]; byDepartment: Map<number, string[]> }> {
  const rows = await db
    .select({ number: policyDocuments.number, departmentId: policyDocuments.departmentId })
    .from(policyDocuments)
    .where(and(eq(policyDocuments.projectId, projectId), live, isNotNull(policyDocuments.number)));
  const byDepartment = new Map<number, string[]>();
  for (const row of rows) {
    if (row.departmentId === null) continue;
    byDepartment.set(row.departmentId, [...(byDepartment.get(row.departmentId) ?? []), row.number!]);
  }
  return { used: rows.map((r) => r.number!).sort(compareNumbers), byDepartment };
}

/**
 * The number a new policy of `department` takes: the next free one in the department's chapter, or the next
 * top-level one without a department (nextPolicyNumber). Call it under lockNumbering when the number is then used.
 */
export async function nextFreeNumber(db: DbOrTx, projectId: number, departmentId: number | null): Promise<string> {
  const scheme = await loadScheme(db, projectId);
  const { used, byDepartment } = await numbersByDepartment(db, projectId);
  const [department] =
    departmentId === null
      ? []
      : await db
          .select({ id: policyDepartments.id, code: policyDepartments.code })
          .from(policyDepartments)
          .where(and(eq(policyDepartments.projectId, projectId), eq(policyDepartments.id, departmentId)));
  return nextPolicyNumber(
    scheme,
    used,
    department ? { code: department.code, numbers: byDepartment.get(department.id) ?? [] } : null,
  );
}

/** One numbering change at a time per project, until the transaction ends: assignments, moves and new numbers. */
export async function lockNumbering(tx: DbOrTx, projectId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('policy_numbering'), ${projectId})`);
}

/** Rewrites numbers in two steps, so a swap (1.2 <-> 1.3) never trips the uniqueness index half-way. */
async function writeNumbers(tx: DbOrTx, projectId: number, changes: { id: number; to: string | null }[], now: Date) {
  if (changes.length === 0) return;
  const ids = changes.map((c) => c.id);
  const where = and(eq(policyDocuments.projectId, projectId), inArray(policyDocuments.id, ids));
  await tx.update(policyDocuments).set({ number: null, updatedAt: now }).where(where);
  const values = sql.join(
    changes.map((c) => sql`(${c.id}::int, ${c.to}::text)`),
    sql`, `,
  );
  await tx.execute(sql`
    update policy_documents d set number = v.number, updated_at = ${now}
      from (values ${values}) as v(id, number)
     where d.id = v.id and d.project_id = ${projectId}`);
}

export async function updateNumbering(db: DbOrTx, actor: PolicyActor, body: NumberingUpdate, now: Date) {
  await db.transaction(async (tx) => {
    // One numbering change at a time per project: assignments and moves read, plan and write under this lock.
    await lockNumbering(tx, actor.projectId);
    if (body.scheme) await saveScheme(tx, actor, body.scheme, now);
    if (body.assignments?.length) await assignNumbers(tx, actor, body.assignments, now);
  });
  return numberingOverview(db, actor.projectId);
}

async function saveScheme(tx: DbOrTx, actor: PolicyActor, scheme: NumberingScheme, now: Date) {
  const before = await loadScheme(tx, actor.projectId);
  const [deepest] = await tx
    .select({
      n: sql<number>`coalesce(max(array_length(string_to_array(regexp_replace(${policyDocuments.number}, '^[A-Z][A-Z0-9]*[-.]', ''), '.'), 1)), 0)::int`,
    })
    .from(policyDocuments)
    .where(and(eq(policyDocuments.projectId, actor.projectId), live));
  if ((deepest?.n ?? 0) > scheme.levels) {
    const message = `Policies already use ${deepest!.n} levels; renumber them before allowing fewer.`;
    throw new AppError('VALIDATION_FAILED', message, { 'scheme.levels': [message] });
  }
  const values = {
    levels: scheme.levels,
    departmentPrefixes: scheme.department_prefixes,
    prefixSeparator: scheme.prefix_separator,
    updatedAt: now,
    updatedBy: actor.userId,
  };
  await tx
    .insert(policyNumbering)
    .values({ projectId: actor.projectId, ...values })
    .onConflictDoUpdate({ target: policyNumbering.projectId, set: values });
  await audit(
    tx,
    actor,
    'numbering_scheme_changed',
    { type: 'project', id: actor.projectId },
    { before, after: scheme, changes: changes(before, scheme) },
    now,
  );
}

async function assignNumbers(
  tx: DbOrTx,
  actor: PolicyActor,
  assignments: NonNullable<NumberingUpdate['assignments']>,
  now: Date,
) {
  const scheme = await loadScheme(tx, actor.projectId);
  const docs = await liveNumbers(tx, actor.projectId);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const errors: Record<string, string[]> = {};
  const final = new Map(docs.map((d) => [d.id, d.number]));
  assignments.forEach((a, i) => {
    const doc = byId.get(a.document_id);
    if (!doc) errors[`assignments.${i}`] = ['This policy is not in this project, or it is archived.'];
    else final.set(a.document_id, a.number);
  });
  assignments.forEach((a, i) => {
    const doc = byId.get(a.document_id);
    if (!doc || a.number === null || errors[`assignments.${i}`]) return;
    const problem = numberProblem(a.number, scheme, doc.departmentCode);
    if (problem) {
      errors[`assignments.${i}`] = [problem];
      return;
    }
    const holders = [...final].filter(([id, n]) => n === a.number && id !== a.document_id);
    if (holders.length) {
      const holder = byId.get(holders[0]![0])!;
      errors[`assignments.${i}`] = [`Number ${a.number} is already used by "${holder.title}".`];
    }
  });
  if (Object.keys(errors).length) {
    throw new AppError('VALIDATION_FAILED', Object.values(errors)[0]![0]!, errors);
  }
  const changes = assignments
    .filter((a) => byId.get(a.document_id)!.number !== a.number)
    .map((a) => ({ id: a.document_id, from: byId.get(a.document_id)!.number, to: a.number }));
  await writeNumbers(tx, actor.projectId, changes, now);
  for (const c of changes) await recordNumberChange(tx, actor, c.id, c.from, c.to, 'assign', now);
  if (changes.length) {
    await audit(tx, actor, 'numbers_assigned', { type: 'project', id: actor.projectId }, { changes }, now);
  }
}

export async function unassignedCount(db: DbOrTx, projectId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(policyDocuments)
    .where(and(eq(policyDocuments.projectId, projectId), live, sql`${policyDocuments.number} is null`));
  return row?.n ?? 0;
}

/**
 * Moves a branch and renumbers (the dnd screen). The user confirmed a preview; when the server's plan differs,
 * someone changed numbers meanwhile and nothing is written.
 */
export async function moveDocument(
  db: DbOrTx,
  actor: PolicyActor,
  body: { document_id: number; parent: string; index: number; expected: { id: number; from: string; to: string }[] },
  now: Date,
) {
  return db.transaction(async (tx) => {
    await lockNumbering(tx, actor.projectId);
    const scheme = await loadScheme(tx, actor.projectId);
    const docs = await liveNumbers(tx, actor.projectId);
    const target = docs.find((d) => d.id === body.document_id);
    if (!target) throw new AppError('NOT_FOUND', 'Policy not found.');
    const items = docs.filter((d) => d.number !== null).map((d) => ({ id: d.id, number: d.number! }));
    const plan = planMove(items, body.document_id, body.parent, body.index, scheme.levels);
    if (plan.problem) throw new AppError('VALIDATION_FAILED', plan.problem, { parent: [plan.problem] });
    const key = (c: { id: number; from: string; to: string }) => `${c.id}:${c.from}>${c.to}`;
    const expected = new Set(body.expected.map(key));
    if (plan.changes.length !== expected.size || plan.changes.some((c) => !expected.has(key(c)))) {
      throw new AppError(
        'CONFLICT',
        'The numbers changed while you were working. Look at the new preview and confirm again.',
      );
    }
    const codes = new Map(docs.map((d) => [d.id, d.departmentCode]));
    for (const change of plan.changes) {
      const problem = numberProblem(change.to, scheme, codes.get(change.id));
      if (problem) {
        const message = `${change.from} cannot become ${change.to}: ${problem}`;
        throw new AppError('VALIDATION_FAILED', message, { parent: [message] });
      }
    }
    await writeNumbers(tx, actor.projectId, plan.changes, now);
    for (const c of plan.changes) await recordNumberChange(tx, actor, c.id, c.from, c.to, 'move', now);
    if (plan.changes.length) {
      await audit(
        tx,
        actor,
        'documents_renumbered',
        { type: 'policy_document', id: body.document_id },
        {
          parent: body.parent,
          index: body.index,
          changes: plan.changes.slice(0, 500),
          count: plan.changes.length,
        },
        now,
      );
    }
    return { changes: plan.changes };
  });
}
