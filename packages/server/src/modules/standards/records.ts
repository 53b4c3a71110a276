import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { loadProjectRow } from '../../db/project-row.js';
import { stdAssessments, stdNodes, stdReqAssessments } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';

/**
 * The standards records every service of the module loads (assessments, element assessments, a framework's nodes),
 * below them all so that none imports another for a loader.
 */

export const isOverdue = (due: string | null, status: string, today: string) =>
  due !== null && due < today && status !== 'done';

export type AssessmentRow = typeof stdAssessments.$inferSelect;

/** An assessment of the actor's project, or 404. */
export async function loadAssessment(db: DbOrTx, projectId: number, id: number): Promise<AssessmentRow> {
  const [row] = await db
    .select()
    .from(stdAssessments)
    .where(and(eq(stdAssessments.projectId, projectId), eq(stdAssessments.id, id)));
  if (!row) throw notFound('Assessment not found.');
  return row;
}

/** Ids of a node and every node below it, in one framework (from an ordered node list). */
export function subtreeIds(nodes: readonly { id: number; parentId: number | null }[], rootId: number): Set<number> {
  const children = new Map<number, number[]>();
  for (const node of nodes) {
    if (node.parentId === null) continue;
    children.set(node.parentId, [...(children.get(node.parentId) ?? []), node.id]);
  }
  const found = new Set<number>();
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (found.has(id)) continue;
    found.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return found;
}

/** The columns of a framework's node that assessments read (the tree reads the same in its own statement). */
const nodeColumns = {
  id: stdNodes.id,
  parentId: stdNodes.parentId,
  refId: stdNodes.refId,
  title: stdNodes.title,
  nodeType: stdNodes.nodeType,
  assessable: stdNodes.assessable,
  depth: stdNodes.depth,
  inForceFrom: stdNodes.inForceFrom,
};

export async function frameworkNodes(db: DbOrTx, frameworkId: number) {
  return db
    .select(nodeColumns)
    .from(stdNodes)
    .where(eq(stdNodes.frameworkId, frameworkId))
    .orderBy(asc(stdNodes.position));
}

/** Whether a node is in force on a day: a paragraph with a later effective date is not assessed for readiness yet. */
export const inForceOn = (node: { inForceFrom: string | null }, day: string) =>
  node.inForceFrom === null || node.inForceFrom <= day;

export type ReqRow = typeof stdReqAssessments.$inferSelect;

/** An element assessment of the actor's project, or 404. */
export async function loadReq(db: DbOrTx, projectId: number, id: number, lock = false): Promise<ReqRow> {
  return loadProjectRow(db, stdReqAssessments, projectId, id, 'Element not found.', lock);
}
