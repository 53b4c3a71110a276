import type { DatasetColumn } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import { monDatasets, monImports, monMeasures, monRows } from '../src/db/schema/index.js';

/**
 * Fixtures of the measures tests (issue 9): a dataset with one committed import, and its rows inserted directly, so
 * measure and formula tests do not depend on the CSV import.
 */

export const WARD_COLUMNS: DatasetColumn[] = [
  { key: 'month', label: 'Month', type: 'date', phi: false },
  { key: 'ward', label: 'Ward', type: 'text', phi: false },
  { key: 'falls', label: 'Falls with injury', type: 'number', phi: false },
  { key: 'patient_days', label: 'Patient days', type: 'number', phi: false },
];

export async function insertDataset(
  db: Database,
  projectId: number,
  values: { name?: string; columns?: DatasetColumn[]; deleted?: boolean } = {},
) {
  const [dataset] = await db
    .insert(monDatasets)
    .values({
      projectId,
      name: values.name ?? 'Ward census',
      timeColumn: 'month',
      columns: values.columns ?? WARD_COLUMNS,
      version: 1,
      deletedAt: values.deleted ? new Date() : null,
    })
    .returning();
  const [upload] = await db
    .insert(monImports)
    .values({ projectId, datasetId: dataset!.id, fileName: 'census.csv', size: 1, sha256: 'x', status: 'committed' })
    .returning();
  return { ...dataset!, importId: upload!.id };
}

export async function insertRows(
  db: Database,
  dataset: { id: number; projectId: number; importId: number },
  rows: { date: string; data: Record<string, unknown>; active?: boolean }[],
) {
  if (rows.length === 0) return;
  await db.insert(monRows).values(
    rows.map((row, index) => ({
      projectId: dataset.projectId,
      datasetId: dataset.id,
      importId: dataset.importId,
      rowNo: index + 2,
      rowDate: row.date,
      data: row.data,
      active: row.active ?? true,
    })),
  );
}

/** `count` rows spread over consecutive days from `from`, made in the database (fast for 100,000 rows). */
export async function insertManyRows(
  db: Database,
  dataset: { id: number; projectId: number; importId: number },
  count: number,
  from = '2023-01-01',
  daysSpan = 1_095,
) {
  await db.execute(sql`
    insert into mon_rows (project_id, dataset_id, import_id, row_no, row_date, data)
    select ${dataset.projectId}, ${dataset.id}, ${dataset.importId}, i + 1,
           ${from}::date + (i % ${daysSpan}),
           jsonb_build_object('ward', case when i % 3 = 0 then 'A' when i % 3 = 1 then 'B' else 'C' end,
                              'falls', i % 2, 'patient_days', 10 + i % 7)
    from generate_series(0, ${count - 1}) as i`);
  await db.execute(sql`analyze mon_rows`);
}

/** A measure row inserted directly (for tests of calls other than measure creation). */
export async function insertMeasure(
  db: Database,
  values: { projectId: number; pageId: number; datasetId?: number | null; name?: string; type?: string },
) {
  const [measure] = await db
    .insert(monMeasures)
    .values({
      projectId: values.projectId,
      pageId: values.pageId,
      datasetId: values.datasetId ?? null,
      name: values.name ?? 'Falls with injury',
      type: values.type ?? 'rate',
    })
    .returning();
  return measure!;
}
