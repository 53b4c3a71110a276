import type { NumberingMode } from '@portal/shared';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { monPages, monSettings } from '../../db/schema/index.js';

/** Numbering and order of the page tree (decision record 008): numbers are labels, never keys. */

export async function numberingModeOf(db: DbOrTx, projectId: number): Promise<NumberingMode> {
  const [row] = await db
    .select({ mode: monSettings.numberingMode })
    .from(monSettings)
    .where(eq(monSettings.projectId, projectId));
  return (row?.mode as NumberingMode | undefined) ?? 'auto';
}

/**
 * Recomputes, in the caller's transaction, each live page's depth and position (0, 1, 2... among its siblings, in
 * their current order) and, in auto mode, its dotted number from the tree ("1", "1.2", "1.2.3"). Only rows that
 * change are written. Answers the changes as { id, from, to } for the audit ("1.3 -> 2.1").
 */
export async function renumberPages(
  tx: DbOrTx,
  projectId: number,
): Promise<{ id: number; from: string | null; to: string | null }[]> {
  const mode = await numberingModeOf(tx, projectId);
  const pages = await tx
    .select({
      id: monPages.id,
      parentId: monPages.parentId,
      position: monPages.position,
      depth: monPages.depth,
      number: monPages.number,
    })
    .from(monPages)
    .where(and(eq(monPages.projectId, projectId), isNull(monPages.deletedAt)))
    .orderBy(asc(monPages.position), asc(monPages.id));
  const children = new Map<number | null, typeof pages>();
  for (const page of pages) {
    const siblings = children.get(page.parentId) ?? [];
    siblings.push(page);
    children.set(page.parentId, siblings);
  }
  // Plan every page first: numbers are unique among live pages, so the changing ones are cleared before any is
  // written and a swap never collides midway.
  const plan: { id: number; position: number; depth: number; number: string | null; was: (typeof pages)[number] }[] =
    [];
  const walk = (parentId: number | null, prefix: string, depth: number) => {
    for (const [index, page] of (children.get(parentId) ?? []).entries()) {
      const number = mode === 'auto' ? `${prefix}${index + 1}` : page.number;
      plan.push({ id: page.id, position: index, depth, number, was: page });
      walk(page.id, `${number ?? `${prefix}${index + 1}`}.`, depth + 1);
    }
  };
  walk(null, '', 1);
  const moved = plan.filter(
    (p) => p.was.position !== p.position || p.was.depth !== p.depth || p.was.number !== p.number,
  );
  const renumbered = moved.filter((p) => p.was.number !== p.number).map((p) => p.id);
  if (renumbered.length) {
    await tx
      .update(monPages)
      .set({ number: null })
      .where(and(eq(monPages.projectId, projectId), inArray(monPages.id, renumbered)));
  }
  for (const p of moved) {
    await tx
      .update(monPages)
      .set({ position: p.position, depth: p.depth, number: p.number })
      .where(and(eq(monPages.projectId, projectId), eq(monPages.id, p.id)));
  }
  return moved.filter((p) => p.was.number !== p.number).map((p) => ({ id: p.id, from: p.was.number, to: p.number }));
}
