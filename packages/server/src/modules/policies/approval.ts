import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policySignatures, policyWorkflowEvents } from '../../db/schema/index.js';

/**
 * When a version was approved, as printed on paper and shown to guests: the moment the workflow published it, or
 * for a version published before the workflow recorded that (an import, the demo manual), its last valid signature.
 * Null when neither is known. As an SQL expression, so that a query of the version's document can carry it.
 */
export function approvedAtSql(projectId: SQL | number, versionId: SQL | number): SQL<string | null> {
  const e = policyWorkflowEvents;
  const s = policySignatures;
  return sql<string | null>`coalesce((select max(${e.createdAt}) from ${e} where ${e.projectId} = ${projectId} and ${
    e.versionId
  } = ${versionId} and ${e.action} = 'published'), (select max(${s.signedAt}) from ${s} where ${
    s.projectId
  } = ${projectId} and ${s.versionId} = ${versionId} and ${s.voidedAt} is null))`;
}

export async function approvedAt(db: DbOrTx, projectId: number, versionId: number): Promise<Date | null> {
  const { rows } = await db.execute<{ at: string | null }>(sql`select ${approvedAtSql(projectId, versionId)} as at`);
  return rows[0]?.at ? new Date(rows[0].at) : null;
}
