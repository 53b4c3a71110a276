import type { StandardCoverage, StandardRef } from '@portal/shared';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { stdAssessments, stdFrameworks, stdNodes } from '../../db/schema/index.js';

/**
 * The elements with a template's ref ids in the frameworks this project can see (built in or its own), and whether
 * the project assesses each one's framework (only those get a suggested link).
 */
export async function standardNodes(db: DbOrTx, projectId: number, refs: readonly StandardRef[]) {
  if (!refs.length) return [];
  return db
    .selectDistinct({
      id: stdNodes.id,
      code: stdFrameworks.code,
      refId: stdNodes.refId,
      title: stdNodes.title,
      assessed: sql<boolean>`${stdAssessments.id} is not null`,
    })
    .from(stdNodes)
    .innerJoin(stdFrameworks, eq(stdFrameworks.id, stdNodes.frameworkId))
    .leftJoin(
      stdAssessments,
      and(eq(stdAssessments.frameworkId, stdFrameworks.id), eq(stdAssessments.projectId, projectId)),
    )
    .where(
      and(
        or(isNull(stdFrameworks.projectId), eq(stdFrameworks.projectId, projectId)),
        inArray(
          stdNodes.refId,
          refs.map((r) => r.ref_id),
        ),
      ),
    );
}

/** Each ref as this project knows it: the element's title (null when no framework it sees has it) and assessed. */
export async function standardsInProject(
  db: DbOrTx,
  projectId: number,
  refs: readonly StandardRef[],
): Promise<Omit<StandardCoverage, 'cited'>[]> {
  const nodes = await standardNodes(db, projectId, refs);
  return refs.map((ref) => {
    const found = nodes.filter((n) => n.code === ref.framework && n.refId === ref.ref_id);
    return {
      framework: ref.framework,
      ref_id: ref.ref_id,
      title: (found.find((n) => n.assessed) ?? found[0])?.title ?? null,
      assessed: found.some((n) => n.assessed),
    };
  });
}
