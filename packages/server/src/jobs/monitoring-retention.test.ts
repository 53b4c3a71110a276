import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createProject } from '../../test/factories.js';
import { addDataset, addMonthlyRows, repeat } from '../../test/monitoring-data-kit.js';
import { auditEvents, monDatasets, monImportChunks, monImports, monRows } from '../db/schema/index.js';
import { purgeExpiredMonitoringRows } from './monitoring-retention.js';

describe('retention of patient-level monitoring data', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  it('deletes the rows and stored files past the retention period of patient-level datasets only', async () => {
    const project = await createProject(db(), { activeApps: ['monitoring'] });
    const patient = await addDataset(db(), project.id, { name: 'Falls by patient' });
    const aggregate = await addDataset(db(), project.id, { name: 'Falls by ward' });
    // 24 months from January 2024 in both; only the patient-level one keeps 12 months.
    await addMonthlyRows(db(), patient, '2024-01-01', repeat(24, [1, 100]));
    await addMonthlyRows(db(), aggregate, '2024-01-01', repeat(24, [1, 100]));
    await db()
      .update(monDatasets)
      .set({ patientLevel: true, retentionMonths: 12 })
      .where(eq(monDatasets.id, patient.id));
    await db()
      .update(monImports)
      .set({ createdAt: new Date('2024-02-01T00:00:00Z') })
      .where(eq(monImports.id, patient.importId));
    await db()
      .insert(monImportChunks)
      .values({ projectId: project.id, importId: patient.importId, seq: 0, data: Buffer.from('month,falls\n') });
    const [before] = await db().select().from(monDatasets).where(eq(monDatasets.id, patient.id));

    const purged = await purgeExpiredMonitoringRows(db(), new Date('2025-12-15T03:00:00Z'));

    // Cut-off 2024-12-15: January to December 2024 go, December 2024's row (dated the 1st) with them.
    expect(purged).toEqual([{ datasetId: patient.id, rows: 12 }]);
    const left = await db().select({ rowDate: monRows.rowDate }).from(monRows).where(eq(monRows.datasetId, patient.id));
    expect(left.map((row) => row.rowDate).sort()[0]).toBe('2025-01-01');
    expect(left).toHaveLength(12);
    expect(await db().select().from(monRows).where(eq(monRows.datasetId, aggregate.id))).toHaveLength(24);
    expect(await db().select().from(monImportChunks).where(eq(monImportChunks.importId, patient.importId))).toEqual([]);
    const [after] = await db().select().from(monDatasets).where(eq(monDatasets.id, patient.id));
    expect(after!.version).toBe(before!.version + 1);
    expect(after!.rowCount).toBe(before!.rowCount - 12);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'monitoring.dataset_retention_purged'),
          eq(auditEvents.subjectId, String(patient.id)),
        ),
      );
    expect(events.map((event) => event.data)).toEqual([
      { before: '2024-12-15', retention_months: 12, rows: 12, files: 1 },
    ]);

    // A second run finds nothing more to remove and leaves the version alone.
    expect(await purgeExpiredMonitoringRows(db(), new Date('2025-12-15T03:00:00Z'))).toEqual([]);
    const [again] = await db().select().from(monDatasets).where(eq(monDatasets.id, patient.id));
    expect(again!.version).toBe(after!.version);
  });
});
