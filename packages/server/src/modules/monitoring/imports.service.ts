import {
  IMPORT_MAX_BYTES,
  type ImportDetail,
  type ImportDetected,
  type ImportErrorPolicy,
  type ImportMode,
  type ImportSettings,
  type ImportStatus,
  type ImportSummary,
  type PreviewRow,
  type RowError,
} from '@portal/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { monDatasets, monImportChunks, monImports, monRows, users } from '../../db/schema/index.js';
import { subjectAudit } from '../../lib/audit.js';
import type { Clock } from '../../lib/clock.js';
import { looksBinary, NOT_CSV_TEXT } from '../../lib/csv.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { datasetRules } from '../../policies/monitoring-records.js';
import { can } from '../../policies/rules.js';
import { type ConvertedRow, rowConverter } from './csv/convert.js';
import { detectCsv } from './csv/detect.js';
import { CsvReadError, importChunks, readRecords } from './csv/read.js';
import { checkSettings, normalizeSettings, phiBlocked } from './csv/settings.js';
import { storeUpload } from './csv/store.js';
import { columnsOf, loadDataset, refuseWhileCommitting } from './datasets.service.js';
import { type CommitLogger, launchCommit } from './imports.commit.js';
import { recomputeDatasetSeries } from './series.service.js';

/**
 * CSV imports into datasets (issue 9; DOMAIN.md 1.4): upload (stored in 1 MB pieces, detected), settings with a
 * preview, commit in the background (imports.commit.ts), roll back of the latest committed import, discard, and the
 * error report. Each import is one reversible unit: its rows carry its id, the rows it replaced carry it in
 * replaced_by. Every query is scoped by the actor's project; another project's import answers 404.
 */

type ImportRow = typeof monImports.$inferSelect;

/** Rows read for the settings preview, and rows shown of them. */
const PREVIEW_READ = 200;
const PREVIEW_SHOWN = 50;

const creators = alias(users, 'import_creator');
const committers = alias(users, 'import_committer');
const rollers = alias(users, 'import_roller');
const iso = (value: Date | null) => (value === null ? null : value.toISOString());
const ref = (id: number | null, name: string | null) => (id !== null && name !== null ? { id, name } : null);

const importOf = (projectId: number, importId: number) =>
  and(eq(monImports.projectId, projectId), eq(monImports.id, importId));

/** Records an import change (`monitoring.<action>`, subject `mon_import`) in the transaction of the change. */
const audit = subjectAudit('monitoring', 'mon_import');

/** The id of the dataset's latest committed import: the only one that may be rolled back. */
async function latestCommitted(db: DbOrTx, projectId: number, datasetId: number): Promise<number | null> {
  const [latest] = await db
    .select({ id: monImports.id })
    .from(monImports)
    .where(
      and(eq(monImports.projectId, projectId), eq(monImports.datasetId, datasetId), eq(monImports.status, 'committed')),
    )
    .orderBy(desc(monImports.committedAt), desc(monImports.id))
    .limit(1);
  return latest?.id ?? null;
}

async function selectImports(db: DbOrTx, projectId: number, where: ReturnType<typeof and>) {
  return db
    .select({
      row: monImports,
      createdName: nameOf(creators),
      committedName: nameOf(committers),
      rolledName: nameOf(rollers),
    })
    .from(monImports)
    .leftJoin(creators, eq(creators.id, monImports.createdBy))
    .leftJoin(committers, eq(committers.id, monImports.committedBy))
    .leftJoin(rollers, eq(rollers.id, monImports.rolledBackBy))
    .where(and(eq(monImports.projectId, projectId), where))
    .orderBy(desc(monImports.createdAt), desc(monImports.id));
}
type Selected = Awaited<ReturnType<typeof selectImports>>[number];

function summary(entry: Selected, latestId: number | null, actor: MonitoringActor): ImportSummary {
  const { row } = entry;
  return {
    id: row.id,
    dataset_id: row.datasetId,
    file_name: row.fileName,
    size: row.size,
    sha256: row.sha256,
    status: row.status as ImportStatus,
    mode: row.mode as ImportMode,
    error_policy: row.errorPolicy as ImportErrorPolicy,
    rows_total: row.rowsTotal,
    rows_ok: row.rowsOk,
    rows_err: row.rowsErr,
    rows_replaced: row.rowsReplaced,
    progress: row.progress,
    message: row.message,
    created_at: row.createdAt.toISOString(),
    created_by: ref(row.createdBy, entry.createdName),
    committed_at: iso(row.committedAt),
    committed_by: ref(row.committedBy, entry.committedName),
    rolled_back_at: iso(row.rolledBackAt),
    rolled_back_by: ref(row.rolledBackBy, entry.rolledName),
    // The latest committed import, for whoever may import into its dataset.
    can_roll_back:
      row.status === 'committed' &&
      row.id === latestId &&
      can(datasetRules, 'import', actor, { projectId: row.projectId }),
  };
}

/** GET /datasets/{id}/imports: newest first. */
export async function listImports(db: DbOrTx, actor: MonitoringActor, datasetId: number): Promise<ImportSummary[]> {
  await loadDataset(db, actor.projectId, datasetId);
  const latestId = await latestCommitted(db, actor.projectId, datasetId);
  const rows = await selectImports(db, actor.projectId, and(eq(monImports.datasetId, datasetId)));
  return rows.map((entry) => summary(entry, latestId, actor));
}

/** An import of a live dataset of the project, else 404 (the dataset row comes along). */
async function loadImport(db: DbOrTx, projectId: number, importId: number, lock = false) {
  const query = db.select().from(monImports).where(importOf(projectId, importId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Import not found.');
  const dataset = await loadDataset(db, projectId, row.datasetId).catch(() => {
    throw notFound('Import not found.');
  });
  return { row, dataset };
}

// ------------------------------------------------------------------ preview

interface FileRead {
  /** Fields of the first line (the header's, when there is one). */
  width: number;
  rows: ConvertedRow[];
}

/** The first `limit` data rows of a stored file, converted by the settings. */
export async function readConverted(
  db: DbOrTx,
  projectId: number,
  importId: number,
  settings: ImportSettings,
  limit: number,
): Promise<FileRead> {
  let width: number | null = null;
  let convert: ReturnType<typeof rowConverter> | null = null;
  const rows: ConvertedRow[] = [];
  if (limit <= 0) return { width: 0, rows };
  for await (const record of readRecords(importChunks(db, projectId, importId), settings)) {
    if (width === null) {
      width = record.cells.length;
      convert = rowConverter(settings, width);
      if (settings.has_header) continue;
    }
    rows.push(convert!.convert(record));
    if (rows.length >= limit) break;
  }
  return { width: width ?? 0, rows };
}

/** Every row with errors among those read comes first into the 50 shown, then the earliest clean rows; by line. */
function previewRows(rows: ConvertedRow[]): PreviewRow[] {
  const bad = rows.filter((row) => row.errors.length > 0).slice(0, PREVIEW_SHOWN);
  const good = rows.filter((row) => row.errors.length === 0).slice(0, PREVIEW_SHOWN - bad.length);
  return [...bad, ...good]
    .sort((a, b) => a.line - b.line)
    .map((row) => ({
      line: row.line,
      values: row.values,
      errors: row.errors.map((error) => ({ column: error.key, reason: error.reason })),
    }));
}

async function preview(db: DbOrTx, row: ImportRow, settings: ImportSettings) {
  try {
    const { rows } = await readConverted(db, row.projectId, row.id, settings, PREVIEW_READ);
    return { preview: previewRows(rows), preview_errors: rows.filter((r) => r.errors.length > 0).length };
  } catch (error) {
    // Settings saved earlier may no longer read the file (never: they are checked when saved); show no preview.
    if (error instanceof CsvReadError) return { preview: [], preview_errors: 0 };
    throw error;
  }
}

async function detail(db: DbOrTx, actor: MonitoringActor, importId: number): Promise<ImportDetail> {
  const { dataset } = await loadImport(db, actor.projectId, importId);
  const [entry] = await selectImports(db, actor.projectId, and(eq(monImports.id, importId)));
  if (!entry) throw notFound('Import not found.');
  const latestId = await latestCommitted(db, actor.projectId, dataset.id);
  const detected = entry.row.detected as ImportDetected;
  const settings = (entry.row.settings as ImportSettings | null) ?? null;
  const shown =
    settings && entry.row.status === 'uploaded'
      ? await preview(db, entry.row, settings)
      : { preview: [], preview_errors: 0 };
  return {
    ...summary(entry, latestId, actor),
    detected,
    settings,
    ...shown,
    phi_blocked: phiBlocked(detected, settings, dataset),
    errors: entry.row.errors as RowError[],
  };
}

/** GET /imports/{id}. */
export const getImport = (db: DbOrTx, actor: MonitoringActor, importId: number) => detail(db, actor, importId);

// ------------------------------------------------------------------ upload

export interface UploadInput {
  fileName: string;
  /** The file's bytes as they arrive (the multipart stream). */
  stream: AsyncIterable<Buffer>;
}

const EMPTY_FILE = 'The file is empty.';
const NO_ROWS = 'The file has no data rows: it needs a header line and at least one line of values.';
const TOO_WIDE = 'A file may have at most 500 columns.';
const fileError = (message: string) => new AppError('VALIDATION_FAILED', message, { file: [message] });

/**
 * POST /datasets/{id}/imports: stores the file as it arrives (in one transaction: a failed or refused upload leaves
 * nothing behind) and answers what was detected, status 'uploaded'. `maxBytes` is IMPORT_MAX_BYTES.
 */
export async function uploadImport(
  db: Database,
  actor: MonitoringActor,
  datasetId: number,
  upload: UploadInput,
  now: Date,
  maxBytes = IMPORT_MAX_BYTES,
): Promise<ImportDetail> {
  const id = await db.transaction(async (tx) => {
    const dataset = await loadDataset(tx, actor.projectId, datasetId);
    const [created] = await tx
      .insert(monImports)
      .values({
        projectId: actor.projectId,
        datasetId,
        fileName: upload.fileName.slice(0, 255) || 'upload.csv',
        size: 0,
        sha256: '',
        createdBy: actor.userId,
        createdAt: now,
      })
      .returning({ id: monImports.id });
    const importId = created!.id;
    const stored = await storeUpload(tx, { projectId: actor.projectId, importId }, upload.stream, maxBytes);
    if (stored.size === 0) throw fileError(EMPTY_FILE);
    if (looksBinary(stored.head)) throw fileError(NOT_CSV_TEXT);
    const detected = detectCsv({
      head: stored.head,
      complete: stored.size <= stored.head.length,
      utf8Valid: stored.utf8Valid,
      lines: stored.lines,
      existing: columnsOf(dataset),
      existingTimeColumn: dataset.timeColumn,
    });
    if (detected.headers.length > 500) throw fileError(TOO_WIDE);
    if (detected.row_count === 0 || detected.sample.length === 0) throw fileError(NO_ROWS);
    await tx
      .update(monImports)
      .set({ size: stored.size, sha256: stored.sha256, detected, rowsTotal: detected.row_count })
      .where(importOf(actor.projectId, importId));
    await audit(
      tx,
      actor,
      'import_uploaded',
      importId,
      {
        dataset_id: datasetId,
        file_name: upload.fileName,
        size: stored.size,
        sha256: stored.sha256,
        rows: detected.row_count,
      },
      now,
    );
    return importId;
  });
  return detail(db, actor, id);
}

// ------------------------------------------------------------------ settings

const notWaiting = (status: string) =>
  new AppError(
    'CONFLICT',
    status === 'committing'
      ? 'This import is being committed; its settings can no longer change.'
      : 'This import is no longer waiting to be committed. Upload the file again to import it.',
  );

/** PUT /imports/{id}/settings: checks the settings against the file and the dataset, stores them, shows the preview. */
export async function saveImportSettings(
  db: Database,
  actor: MonitoringActor,
  importId: number,
  input: ImportSettings,
  now: Date,
): Promise<ImportDetail> {
  const settings = normalizeSettings(input);
  await db.transaction(async (tx) => {
    const { row, dataset } = await loadImport(tx, actor.projectId, importId, true);
    if (row.status !== 'uploaded') throw notWaiting(row.status);
    checkSettings(settings, dataset, null);
    let width: number;
    try {
      ({ width } = await readConverted(tx, actor.projectId, importId, settings, 1));
    } catch (error) {
      if (error instanceof CsvReadError) {
        throw new AppError('VALIDATION_FAILED', error.message, { delimiter: [error.message] });
      }
      throw error;
    }
    checkSettings(settings, dataset, width);
    await tx
      .update(monImports)
      .set({
        settings,
        mode: settings.mode,
        errorPolicy: settings.error_policy,
        rangeFrom: settings.range_from,
        rangeTo: settings.range_to,
        keyColumns: settings.key_columns,
      })
      .where(importOf(actor.projectId, importId));
    await audit(
      tx,
      actor,
      'import_settings_saved',
      importId,
      {
        dataset_id: row.datasetId,
        mode: settings.mode,
        error_policy: settings.error_policy,
        columns: settings.columns.filter((column) => !column.skip).map((column) => column.key),
        time_column: settings.time_column,
      },
      now,
    );
  });
  return detail(db, actor, importId);
}

// ------------------------------------------------------------------ commit

/**
 * POST /imports/{id}/commit: checks that the import may be committed, marks it 'committing' and starts the commit
 * in the background (imports.commit.ts); the answer comes at once, the web follows `progress` and `status`.
 */
export async function startCommit(
  db: Database,
  actor: MonitoringActor,
  importId: number,
  log: CommitLogger,
  clock: Clock,
): Promise<ImportDetail> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const { row, dataset } = await loadImport(tx, actor.projectId, importId, true);
    if (row.status !== 'uploaded') throw notWaiting(row.status);
    const settings = row.settings as ImportSettings | null;
    if (!settings) {
      const message = 'Choose the import settings (columns, time column, mode) before committing.';
      throw new AppError('VALIDATION_FAILED', message, { settings: [message] });
    }
    // The dataset may have changed since the settings were saved (another import added columns).
    checkSettings(settings, dataset, null);
    const blocked = phiBlocked(row.detected as ImportDetected, settings, dataset);
    if (blocked.length > 0) {
      throw new AppError('VALIDATION_FAILED', blocked[0]!.reason, {
        columns: blocked.map((entry) => `${entry.column}: ${entry.reason}`),
      });
    }
    await tx
      .update(monImports)
      .set({ status: 'committing', progress: 0, message: null })
      .where(importOf(actor.projectId, importId));
    await audit(tx, actor, 'import_commit_started', importId, { dataset_id: row.datasetId, mode: settings.mode }, now);
  });
  // Read before the commit starts: a small file may be committed before a later read, and the answer is 'committing'.
  const answer = await detail(db, actor, importId);
  launchCommit(
    db,
    { projectId: actor.projectId, importId, userId: actor.userId, ip: actor.ip, requestId: actor.requestId, clock },
    log,
  );
  return answer;
}

// ------------------------------------------------------------------ roll back

/**
 * POST /imports/{id}/rollback: the latest committed import of its dataset only. In one transaction its rows go
 * inactive, the rows it replaced come back, the dataset's version goes up; then its measures are recomputed.
 */
export async function rollbackImport(
  db: Database,
  actor: MonitoringActor,
  importId: number,
  log: CommitLogger,
  now: Date,
): Promise<ImportDetail> {
  const datasetId = await db.transaction(async (tx) => {
    const { row } = await loadImport(tx, actor.projectId, importId);
    // Checked before waiting for the dataset's lock, which a running commit holds until it ends.
    await refuseWhileCommitting(tx, actor.projectId, row.datasetId);
    const dataset = await loadDataset(tx, actor.projectId, row.datasetId, true);
    const [current] = await tx.select().from(monImports).where(importOf(actor.projectId, importId)).for('update');
    if (current!.status !== 'committed') throw new AppError('CONFLICT', 'Only a committed import can be rolled back.');
    if ((await latestCommitted(tx, actor.projectId, dataset.id)) !== importId) {
      throw new AppError('CONFLICT', 'Roll back the later imports first.');
    }
    const removed = await tx
      .update(monRows)
      .set({ active: false })
      .where(
        and(
          eq(monRows.projectId, actor.projectId),
          eq(monRows.datasetId, dataset.id),
          eq(monRows.importId, importId),
          eq(monRows.active, true),
        ),
      );
    const restored = await tx
      .update(monRows)
      .set({ active: true, replacedBy: null })
      .where(
        and(
          eq(monRows.projectId, actor.projectId),
          eq(monRows.datasetId, dataset.id),
          eq(monRows.replacedBy, importId),
        ),
      );
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(monRows)
      .where(and(eq(monRows.projectId, actor.projectId), eq(monRows.datasetId, dataset.id), eq(monRows.active, true)));
    await tx
      .update(monDatasets)
      .set({ version: dataset.version + 1, rowCount: n, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(monDatasets.projectId, actor.projectId), eq(monDatasets.id, dataset.id)));
    await tx
      .update(monImports)
      .set({ status: 'rolled_back', rolledBackAt: now, rolledBackBy: actor.userId })
      .where(importOf(actor.projectId, importId));
    await audit(
      tx,
      actor,
      'import_rolled_back',
      importId,
      {
        dataset_id: dataset.id,
        rows_removed: removed.rowCount ?? 0,
        rows_restored: restored.rowCount ?? 0,
        dataset_version: dataset.version + 1,
      },
      now,
    );
    return dataset.id;
  });
  await recomputeDatasetSeries(db, actor.projectId, datasetId, now).catch((error) =>
    log.error({ err: error, datasetId }, 'Series not recomputed after a roll back'),
  );
  return detail(db, actor, importId);
}

// ------------------------------------------------------------------ discard and error report

/**
 * DELETE /imports/{id}: an uploaded import goes entirely (its file and its row); a failed one keeps its row (the
 * history shows the failure and its errors) and loses its file. Committed and rolled back imports stay.
 */
export async function discardImport(db: Database, actor: MonitoringActor, importId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const { row } = await loadImport(tx, actor.projectId, importId, true);
    if (row.status !== 'uploaded' && row.status !== 'failed') {
      throw new AppError(
        'CONFLICT',
        row.status === 'committing'
          ? 'This import is being committed; it cannot be discarded.'
          : 'A committed import cannot be discarded; roll it back instead.',
      );
    }
    await tx
      .delete(monImportChunks)
      .where(and(eq(monImportChunks.projectId, actor.projectId), eq(monImportChunks.importId, importId)));
    await audit(
      tx,
      actor,
      'import_discarded',
      importId,
      {
        dataset_id: row.datasetId,
        file_name: row.fileName,
        status: row.status,
      },
      now,
    );
    if (row.status === 'uploaded') await tx.delete(monImports).where(importOf(actor.projectId, importId));
  });
}

/** GET /imports/{id}/errors.csv: the errors of the commit (the first 1,000), as line, column, value, reason. */
export async function importErrors(
  db: DbOrTx,
  actor: MonitoringActor,
  importId: number,
): Promise<{ fileName: string; errors: RowError[] }> {
  const { row } = await loadImport(db, actor.projectId, importId);
  return { fileName: `import-${importId}-errors.csv`, errors: row.errors as RowError[] };
}
