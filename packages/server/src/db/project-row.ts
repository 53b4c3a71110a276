import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { notFound } from '../lib/errors.js';
import type { DbOrTx } from './client.js';

/** A table whose rows each belong to one project. */
type ProjectTable = PgTable & { id: PgColumn; projectId: PgColumn };

/**
 * The row of `table` with this id in this project, locked for the transaction when `lock`; else 404 with `missing`
 * (another project's id reads as unknown).
 */
export async function loadProjectRow<T extends ProjectTable>(
  db: DbOrTx,
  table: T,
  projectId: number,
  id: number,
  missing: string,
  lock = false,
): Promise<T['$inferSelect']> {
  const query = db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.projectId, projectId), eq(table.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound(missing);
  return row as T['$inferSelect'];
}
