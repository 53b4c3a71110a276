import { and, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { monDatasets, monImportChunks, monImports, monRows } from '../db/schema/index.js';
import { recordAudit } from '../lib/audit.js';

/**
 * Retention of patient-level monitoring data (DOMAIN.md 1.4, decision record 010): a patient-level dataset keeps
 * its rows for `retention_months`. Rows dated before that are deleted (active or replaced), and so are the stored
 * files of imports made before it, since the files hold the same patient rows. Each dataset is one transaction with
 * an audit event; its version goes up so every cached series is recomputed without the rows.
 */
export async function purgeExpiredMonitoringRows(
  db: Database,
  now: Date,
): Promise<{ datasetId: number; rows: number }[]> {
  const datasets = await db
    .select({ id: monDatasets.id, projectId: monDatasets.projectId, months: monDatasets.retentionMonths })
    .from(monDatasets)
    .where(
      and(eq(monDatasets.patientLevel, true), isNotNull(monDatasets.retentionMonths), isNull(monDatasets.deletedAt)),
    );
  const purged: { datasetId: number; rows: number }[] = [];
  for (const dataset of datasets) {
    const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - dataset.months!, now.getUTCDate()));
    const cutoffDay = cutoff.toISOString().slice(0, 10);
    await db.transaction(async (tx) => {
      const removed = await tx
        .delete(monRows)
        .where(
          and(
            eq(monRows.projectId, dataset.projectId),
            eq(monRows.datasetId, dataset.id),
            lt(monRows.rowDate, cutoffDay),
          ),
        )
        .returning({ active: monRows.active });
      const oldImports = tx
        .select({ id: monImports.id })
        .from(monImports)
        .where(
          and(
            eq(monImports.projectId, dataset.projectId),
            eq(monImports.datasetId, dataset.id),
            lt(monImports.createdAt, cutoff),
            inArray(monImports.status, ['committed', 'rolled_back', 'failed']),
          ),
        );
      const files = await tx
        .delete(monImportChunks)
        .where(and(eq(monImportChunks.projectId, dataset.projectId), inArray(monImportChunks.importId, oldImports)))
        .returning({ importId: monImportChunks.importId });
      if (removed.length === 0 && files.length === 0) return;
      const active = removed.filter((row) => row.active).length;
      await tx
        .update(monDatasets)
        .set({ version: sql`${monDatasets.version} + 1`, rowCount: sql`${monDatasets.rowCount} - ${active}` })
        .where(and(eq(monDatasets.projectId, dataset.projectId), eq(monDatasets.id, dataset.id)));
      await recordAudit(tx, {
        action: 'monitoring.dataset_retention_purged',
        projectId: dataset.projectId,
        actorUserId: null,
        subjectType: 'mon_dataset',
        subjectId: dataset.id,
        data: {
          before: cutoffDay,
          retention_months: dataset.months,
          rows: removed.length,
          files: new Set(files.map((file) => file.importId)).size,
        },
        ip: null,
        requestId: null,
        at: now,
      });
      purged.push({ datasetId: dataset.id, rows: removed.length });
    });
  }
  return purged;
}
