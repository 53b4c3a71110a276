import type { Readable } from 'node:stream';
import type { Dataset, DatasetColumn, DatasetUpdate, datasetCreateSchema } from '@portal/shared';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { monDatasets, monImports, monMeasures } from '../../db/schema/index.js';
import { subjectAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { safeFileName } from '../../lib/csv.js';
import { csvStream } from '../../lib/csv-export.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { DATASET_ABILITIES, type DatasetFacts, datasetRules } from '../../policies/monitoring-records.js';
import { authorize, serialize } from '../../policies/rules.js';

/**
 * Datasets of monitoring (issue 9; DOMAIN.md 1.4): named tables of rows imported from CSV files, which measures
 * compute from. Who reads them: anyone whose role may use csv-import, formula-builder or page-charts (routes check
 * it); who changes them: the dataset rules (policies/monitoring-records.ts: csv-import for its name and description,
 * monitoring administrators for patient-level, retention and delete). Every query is scoped by the actor's project;
 * another project's dataset answers 404.
 */

type DatasetRow = typeof monDatasets.$inferSelect;
export type DatasetCreateInput = z.output<typeof datasetCreateSchema>;

/** The sections whose people read datasets (the import screen, the formula builder, the chart editor). */
export const DATASET_READ_SECTIONS = ['csv-import', 'formula-builder', 'page-charts'] as const;

/** The facts the dataset rules read of a row. */
const datasetFacts = (row: { projectId: number }): DatasetFacts => ({ projectId: row.projectId });

export const columnsOf = (row: { columns: unknown }) => row.columns as DatasetColumn[];

const liveDataset = (projectId: number, datasetId: number) =>
  and(eq(monDatasets.projectId, projectId), eq(monDatasets.id, datasetId), isNull(monDatasets.deletedAt));

/** A live dataset of the project (locked for the transaction when `lock`), else 404. */
export async function loadDataset(db: DbOrTx, projectId: number, datasetId: number, lock = false): Promise<DatasetRow> {
  const query = db.select().from(monDatasets).where(liveDataset(projectId, datasetId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Dataset not found.');
  return row;
}

// Written with the table's name: drizzle leaves column references of a one-table select unqualified, which inside
// these subqueries would name the inner table's columns.
const measureCount = sql<number>`(select count(*)::int from mon_measures m
  where m.project_id = mon_datasets.project_id and m.dataset_id = mon_datasets.id and m.deleted_at is null)`;
// The partial index on active rows (dataset_id, row_date) answers both without reading the rows.
const firstDate = sql<string | null>`(select min(r.row_date)::text from mon_rows r
  where r.dataset_id = mon_datasets.id and r.project_id = mon_datasets.project_id and r.active)`;
const lastDate = sql<string | null>`(select max(r.row_date)::text from mon_rows r
  where r.dataset_id = mon_datasets.id and r.project_id = mon_datasets.project_id and r.active)`;

function present(
  row: DatasetRow,
  extra: { measureCount: number; firstDate: string | null; lastDate: string | null },
  actor: MonitoringActor,
): Dataset {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    time_column: row.timeColumn,
    columns: columnsOf(row),
    patient_level: row.patientLevel,
    retention_months: row.retentionMonths,
    version: row.version,
    row_count: row.rowCount,
    first_date: extra.firstDate,
    last_date: extra.lastDate,
    measure_count: extra.measureCount,
    updated_at: row.updatedAt.toISOString(),
    abilities: serialize(datasetRules, actor, datasetFacts(row), DATASET_ABILITIES),
  };
}

async function selectDatasets(db: DbOrTx, actor: MonitoringActor, datasetId?: number): Promise<Dataset[]> {
  const rows = await db
    .select({ dataset: monDatasets, measureCount, firstDate, lastDate })
    .from(monDatasets)
    .where(
      datasetId === undefined
        ? and(eq(monDatasets.projectId, actor.projectId), isNull(monDatasets.deletedAt))
        : liveDataset(actor.projectId, datasetId),
    )
    .orderBy(sql`lower(${monDatasets.name})`, asc(monDatasets.id));
  return rows.map((row) => present(row.dataset, row, actor));
}

/** GET /datasets: the project's datasets by name. */
export const listDatasets = (db: DbOrTx, actor: MonitoringActor) => selectDatasets(db, actor);

/** GET /datasets/{id}. */
export async function getDataset(db: DbOrTx, actor: MonitoringActor, datasetId: number): Promise<Dataset> {
  const [dataset] = await selectDatasets(db, actor, datasetId);
  if (!dataset) throw notFound('Dataset not found.');
  return dataset;
}

/** Records a dataset change (`monitoring.<action>`, subject `mon_dataset`) in the transaction of the change. */
const audit = subjectAudit('monitoring', 'mon_dataset');

const nameTaken = (name: string) => {
  const message = `A dataset named "${name}" already exists.`;
  return new AppError('CONFLICT', message, { name: [message] });
};

/** Names are unique per project among live datasets, whatever their case. */
async function checkName(tx: DbOrTx, projectId: number, name: string, exceptId?: number): Promise<void> {
  const [taken] = await tx
    .select({ id: monDatasets.id })
    .from(monDatasets)
    .where(
      and(
        eq(monDatasets.projectId, projectId),
        isNull(monDatasets.deletedAt),
        sql`lower(${monDatasets.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(monDatasets.id, exceptId),
      ),
    );
  if (taken) throw nameTaken(name);
}

/** A second request with the same name between our check and our insert still meets the unique index. */
function rethrowNameViolation(error: unknown, name: string): never {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const inner = e?.cause ?? e;
  if (inner?.code === '23505' && inner?.constraint === 'mon_datasets_name_unique') throw nameTaken(name);
  throw error;
}

/** POST /datasets: an empty dataset (aggregate, not patient-level); its columns come with the first import. */
export async function createDataset(
  db: Database,
  actor: MonitoringActor,
  input: DatasetCreateInput,
  now: Date,
): Promise<Dataset> {
  const id = await db
    .transaction(async (tx) => {
      await checkName(tx, actor.projectId, input.name);
      const [row] = await tx
        .insert(monDatasets)
        .values({
          projectId: actor.projectId,
          name: input.name,
          description: input.description,
          createdBy: actor.userId,
          updatedBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: monDatasets.id });
      await audit(tx, actor, 'dataset_created', row!.id, { name: input.name }, now);
      return row!.id;
    })
    .catch((error) => rethrowNameViolation(error, input.name));
  return getDataset(db, actor, id);
}

const RETENTION_NEEDED = 'Set how many months the rows of a patient-level dataset are kept.';

/** PUT /datasets/{id}: name and description (csv-import); patient-level and retention (administrators only). */
export async function updateDataset(
  db: Database,
  actor: MonitoringActor,
  datasetId: number,
  input: DatasetUpdate,
  now: Date,
): Promise<Dataset> {
  await db
    .transaction(async (tx) => {
      // Checked before waiting for the dataset's lock, which a running commit holds until it ends.
      await refuseWhileCommitting(tx, actor.projectId, datasetId);
      const row = await loadDataset(tx, actor.projectId, datasetId, true);
      const adminFields = input.patient_level !== undefined || input.retention_months !== undefined;
      if (adminFields) authorize(datasetRules, 'manage', actor, datasetFacts(row));
      const next = {
        name: input.name ?? row.name,
        description: input.description ?? row.description,
        patientLevel: input.patient_level ?? row.patientLevel,
        retentionMonths: input.retention_months === undefined ? row.retentionMonths : input.retention_months,
      };
      if (next.patientLevel && next.retentionMonths === null) {
        throw new AppError('VALIDATION_FAILED', RETENTION_NEEDED, { retention_months: [RETENTION_NEEDED] });
      }
      const phi = columnsOf(row).filter((column) => column.phi);
      if (!next.patientLevel && row.patientLevel && phi.length > 0) {
        const names = phi.map((column) => column.label).join(', ');
        throw new AppError(
          'CONFLICT',
          `This dataset holds columns that look like patient identifiers (${names}); it stays patient-level.`,
        );
      }
      if (next.name.toLowerCase() !== row.name.toLowerCase()) await checkName(tx, actor.projectId, next.name, row.id);
      const fields = (
        [
          ['name', next.name !== row.name],
          ['description', next.description !== row.description],
          ['patient_level', next.patientLevel !== row.patientLevel],
          ['retention_months', next.retentionMonths !== row.retentionMonths],
        ] as const
      )
        .filter(([, changed]) => changed)
        .map(([field]) => field);
      if (fields.length === 0) return;
      await tx
        .update(monDatasets)
        .set({ ...next, updatedAt: now, updatedBy: actor.userId })
        .where(liveDataset(actor.projectId, datasetId));
      await audit(
        tx,
        actor,
        'dataset_updated',
        datasetId,
        {
          fields,
          ...(fields.includes('patient_level') ? { patient_level: next.patientLevel } : {}),
          ...(fields.includes('retention_months') ? { retention_months: next.retentionMonths } : {}),
          changes: changes(
            {
              name: row.name,
              description: row.description,
              patient_level: row.patientLevel,
              retention_months: row.retentionMonths,
            },
            {
              name: next.name,
              description: next.description,
              patient_level: next.patientLevel,
              retention_months: next.retentionMonths,
            },
          ),
        },
        now,
      );
    })
    .catch((error) => rethrowNameViolation(error, input.name ?? ''));
  return getDataset(db, actor, datasetId);
}

/** Refuses a change while an import into the dataset is being committed (it holds the dataset until it ends). */
export async function refuseWhileCommitting(db: DbOrTx, projectId: number, datasetId: number): Promise<void> {
  const [busy] = await db
    .select({ id: monImports.id })
    .from(monImports)
    .where(
      and(
        eq(monImports.projectId, projectId),
        eq(monImports.datasetId, datasetId),
        eq(monImports.status, 'committing'),
      ),
    )
    .limit(1);
  if (busy) throw new AppError('CONFLICT', 'An import into this dataset is being committed. Wait until it ends.');
}

/** DELETE /datasets/{id}: administrators; a soft delete, refused while measures use the dataset. */
export async function deleteDataset(db: Database, actor: MonitoringActor, datasetId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    authorize(datasetRules, 'delete', actor, datasetFacts(await loadDataset(tx, actor.projectId, datasetId)));
    await refuseWhileCommitting(tx, actor.projectId, datasetId);
    const row = await loadDataset(tx, actor.projectId, datasetId, true);
    const measures = await tx
      .select({ name: monMeasures.name })
      .from(monMeasures)
      .where(
        and(
          eq(monMeasures.projectId, actor.projectId),
          eq(monMeasures.datasetId, datasetId),
          isNull(monMeasures.deletedAt),
        ),
      )
      .orderBy(asc(monMeasures.name));
    if (measures.length > 0) {
      throw new AppError('CONFLICT', `Measures use this dataset: ${measures.map((m) => m.name).join(', ')}.`);
    }
    await tx
      .update(monDatasets)
      .set({ deletedAt: now, updatedAt: now, updatedBy: actor.userId })
      .where(liveDataset(actor.projectId, datasetId));
    await audit(tx, actor, 'dataset_deleted', datasetId, { name: row.name, row_count: row.rowCount }, now);
  });
}

/** Rows fetched per query of an export. */
export const EXPORT_BATCH = 5_000;

/**
 * Batches of a dataset's active rows by id, in one read-only snapshot (a commit or roll back during the download
 * does not mix versions). The connection is released when the last batch is read or the stream is destroyed.
 */
async function* activeRowBatches(
  pool: pg.Pool,
  projectId: number,
  datasetId: number,
  keys: string[],
): AsyncGenerator<unknown[][]> {
  const client = await pool.connect();
  let done = false;
  try {
    await client.query('begin isolation level repeatable read read only');
    let after = 0;
    for (;;) {
      const { rows } = await client.query<{ id: string; data: Record<string, unknown> }>(
        `select id, data from mon_rows
          where project_id = $1 and dataset_id = $2 and active and id > $3
          order by id limit $4`,
        [projectId, datasetId, after, EXPORT_BATCH],
      );
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1]!.id);
      yield rows.map((row) => keys.map((key) => row.data[key] ?? null));
    }
    await client.query('commit');
    done = true;
  } finally {
    if (!done) await client.query('rollback').catch(() => {});
    client.release();
  }
}

/** GET /datasets/{id}/rows.csv: the active rows, time column first, cells escaped; audited (it may hold PHI). */
export async function datasetRowsCsv(
  database: { db: Database; pool: pg.Pool },
  actor: MonitoringActor,
  datasetId: number,
  now: Date,
): Promise<{ fileName: string; stream: Readable }> {
  const row = await loadDataset(database.db, actor.projectId, datasetId);
  const columns = columnsOf(row);
  const ordered = [
    ...columns.filter((column) => column.key === row.timeColumn),
    ...columns.filter((column) => column.key !== row.timeColumn),
  ];
  await audit(
    database.db,
    actor,
    'dataset_rows_exported',
    datasetId,
    {
      name: row.name,
      row_count: row.rowCount,
      patient_level: row.patientLevel,
    },
    now,
  );
  const keys = ordered.map((column) => column.key);
  return {
    fileName: `${safeFileName(row.name) || 'dataset'}-rows.csv`,
    stream: csvStream(
      ordered.map((column) => column.label),
      activeRowBatches(database.pool, actor.projectId, datasetId, keys),
    ),
  };
}
