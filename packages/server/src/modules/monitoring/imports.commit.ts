import type { AuditActionIn, DatasetColumn, ImportDetected, ImportSettings, RowError } from '@portal/shared';
import { importSettingsSchema } from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { monDatasets, monImports } from '../../db/schema/index.js';
import { recordAudit, subjectAudit } from '../../lib/audit.js';
import type { Clock } from '../../lib/clock.js';
import { type ConvertedRow, rowConverter } from './csv/convert.js';
import { phiKind } from './csv/phi.js';
import { CsvReadError, importChunks, readRecordBatches } from './csv/read.js';
import { checkSettings, phiBlocked } from './csv/settings.js';
import { recomputeDatasetSeries } from './series.service.js';

/**
 * The commit of a CSV import (issue 9; DOMAIN.md 1.4), run in the background of this process after
 * POST /imports/{id}/commit answered 202.
 *
 * Memory stays flat: the stored file is read back one 1 MB chunk at a time through a streaming decoder and csv-parse;
 * valid rows go to PostgreSQL in batches of BATCH_ROWS (one multi-row INSERT ... SELECT FROM unnest each); at most
 * one batch and the first 1,000 errors are held. Everything lands in ONE transaction (rows, replaced rows, the
 * dataset's columns, version and row count, the import's outcome, the audit event), so a failure saves nothing.
 * Progress is written about every PROGRESS_ROWS rows (checked after each piece) through another pool connection,
 * outside that transaction, so the screen can follow it.
 *
 * Modes: append adds the rows; replace_range first deactivates the active rows dated in the range (a row of the
 * file outside the range is an error); upsert deactivates, once all rows are in, the active rows whose key columns
 * equal an incoming row's (set-based, one UPDATE ... FROM join), and inside the file the later line of a key wins.
 * Replaced rows keep replaced_by = this import, so a roll back restores them.
 *
 * Error policy: 'skip' leaves bad rows out and reports them (counts, first 1,000 errors). 'abort' stops inserting
 * at the first bad row but keeps reading, without inserting, until the end or 1,000 errors, so the person gets the
 * whole list of what to fix in one go; then everything is rolled back and the import is 'failed'.
 */

export const BATCH_ROWS = 2_000;
export const PROGRESS_ROWS = 20_000;
export const MAX_ERRORS = 1_000;
export const INTERRUPTED_MESSAGE = 'The server stopped during the import; nothing was saved. Import the file again.';
const SERVER_ERROR_MESSAGE = 'The import failed because of a server error; nothing was saved. Try again later.';
/** Commits of one import exclude each other and the start-up sweep (pg_advisory_xact_lock(LOCK_SPACE, importId)). */
const LOCK_SPACE = sql`hashtext('mon_import_commit')`;

export interface CommitJob {
  projectId: number;
  importId: number;
  /** Who committed (committed_by, audit actor). */
  userId: number | null;
  ip: string | null;
  requestId: string | null;
  /** The app clock: the commit runs after the request, and stamps its outcome with the time it ends. */
  clock: Clock;
}

export interface CommitOutcome {
  status: 'committed' | 'failed' | 'skipped';
  datasetId: number | null;
  rowsRead: number;
  rowsOk: number;
  rowsErr: number;
  rowsReplaced: number;
  message: string | null;
}

export interface CommitLogger {
  error(object: unknown, message?: string): void;
}

/** A commit that ends without saving anything, with a message for the person. */
class CommitFailure extends Error {}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

interface Counts {
  read: number;
  ok: number;
  err: number;
  errors: RowError[];
  /** Reading stopped at MAX_ERRORS under 'abort'. */
  stoppedEarly: boolean;
}

/** The dataset's columns after the import: known keys keep their definition, new ones are added in file order. */
function mergedColumns(
  existing: DatasetColumn[],
  settings: ImportSettings,
  detected: ImportDetected,
  patientLevel: boolean,
): DatasetColumn[] {
  const merged = existing.map((column) => ({ ...column }));
  for (const column of settings.columns) {
    if (column.skip) continue;
    const phi =
      patientLevel &&
      (phiKind(detected.headers[column.source] ?? '') ?? phiKind(column.label) ?? phiKind(column.key)) !== null;
    const known = merged.find((entry) => entry.key === column.key);
    if (known) known.phi = known.phi || phi;
    else merged.push({ key: column.key, label: column.label, type: column.type, phi });
  }
  return merged;
}

/** One multi-row INSERT of a batch: three arrays unnested on the server. */
async function insertBatch(tx: DbOrTx, job: CommitJob, datasetId: number, rows: ConvertedRow[]): Promise<void> {
  if (rows.length === 0) return;
  const lines = rows.map((row) => row.line);
  const dates = rows.map((row) => row.rowDate);
  const data = rows.map((row) => JSON.stringify(row.values));
  await tx.execute(sql`
    insert into mon_rows (project_id, dataset_id, import_id, row_no, row_date, data)
    select ${job.projectId}, ${datasetId}, ${job.importId}, t.line, t.day, t.data::jsonb
      from unnest(${sql.param(lines)}::int[], ${sql.param(dates)}::date[], ${sql.param(data)}::text[])
        as t(line, day, data)`);
}

/** The key of a row for update by key: its key columns' values as a JSON array. */
const keyOf = (alias: string, keys: string[]) =>
  sql`jsonb_build_array(${sql.join(
    keys.map((key) => sql`${sql.raw(alias)}.data -> ${key}::text`),
    sql`, `,
  )})`;

/** Update by key, once every row is in: in-file duplicates (the later line wins), then older rows. */
async function replaceByKey(tx: DbOrTx, job: CommitJob, datasetId: number, keys: string[]): Promise<number> {
  // The rows just inserted are not in the planner's statistics yet: it would pick a nested loop (every incoming row
  // against every row of its date, quadratic). Both statements are hash or sort joins by nature.
  await tx.execute(sql`set local enable_nestloop = off`);
  await tx.execute(sql`
    update mon_rows r set active = false
      from (select x.id, row_number() over (partition by x.row_date, ${keyOf('x', keys)}
                                            order by x.row_no desc, x.id desc) as n
              from mon_rows x
             where x.project_id = ${job.projectId} and x.import_id = ${job.importId} and x.active) d
     where r.id = d.id and d.n > 1`);
  const replaced = await tx.execute(sql`
    update mon_rows o set active = false, replaced_by = ${job.importId}
      from mon_rows n
     where n.project_id = ${job.projectId} and n.import_id = ${job.importId} and n.active
       and o.project_id = ${job.projectId} and o.dataset_id = ${datasetId} and o.active
       and o.import_id <> ${job.importId}
       and o.row_date = n.row_date and ${keyOf('o', keys)} = ${keyOf('n', keys)}`);
  await tx.execute(sql`set local enable_nestloop to default`);
  return replaced.rowCount ?? 0;
}

const importAudit = subjectAudit('monitoring', 'mon_import');

/** Records a change of the job's import, by the person who committed it. */
function audit(
  tx: DbOrTx,
  job: CommitJob,
  action: AuditActionIn<'monitoring'>,
  data: Record<string, unknown>,
  at?: Date,
) {
  return importAudit(tx, job, action, job.importId, data, at);
}

async function writeProgress(db: Database, job: CommitJob, read: number): Promise<void> {
  await db
    .update(monImports)
    .set({ progress: read })
    .where(
      and(
        eq(monImports.projectId, job.projectId),
        eq(monImports.id, job.importId),
        eq(monImports.status, 'committing'),
      ),
    );
}

/** Marks the import failed (nothing was saved), with the errors found; audited. */
async function markFailed(db: Database, job: CommitJob, message: string, counts: Counts | null): Promise<void> {
  const now = job.clock.now();
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(monImports)
      .set({
        status: 'failed',
        message,
        rowsOk: 0,
        rowsReplaced: 0,
        ...(counts
          ? { rowsTotal: counts.read, rowsErr: counts.err, errors: counts.errors, progress: counts.read }
          : {}),
      })
      .where(
        and(
          eq(monImports.projectId, job.projectId),
          eq(monImports.id, job.importId),
          eq(monImports.status, 'committing'),
        ),
      )
      .returning({ id: monImports.id });
    if (updated.length > 0) await audit(tx, job, 'import_failed', { message, rows_err: counts?.err ?? 0 }, now);
  });
}

/**
 * Commits an import that is in status 'committing' (set by startCommit in imports.service.ts). Resolves with the
 * outcome once the import is 'committed' or 'failed'; it rejects only when even recording the failure fails.
 * 'skipped': the import was no longer 'committing' (a start-up sweep failed it first).
 */
export async function runImportCommit(db: Database, job: CommitJob, log: CommitLogger): Promise<CommitOutcome> {
  const counts: Counts = { read: 0, ok: 0, err: 0, errors: [], stoppedEarly: false };
  let datasetId: number | null = null;
  try {
    const done = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${job.importId})`);
      // Not locked FOR UPDATE: the progress writes from the other connection must not wait for this transaction.
      const [row] = await tx
        .select()
        .from(monImports)
        .where(and(eq(monImports.projectId, job.projectId), eq(monImports.id, job.importId)));
      if (row?.status !== 'committing') return null;
      datasetId = row.datasetId;
      const [dataset] = await tx
        .select()
        .from(monDatasets)
        .where(and(eq(monDatasets.projectId, job.projectId), eq(monDatasets.id, row.datasetId)))
        .for('update');
      if (!dataset || dataset.deletedAt) throw new CommitFailure('The dataset was deleted; nothing was imported.');
      const settings = importSettingsSchema.parse(row.settings);
      const detected = row.detected as ImportDetected;
      // The dataset may have changed since the commit was asked for (an import committed before this one).
      try {
        checkSettings(settings, dataset, null);
      } catch (error) {
        throw new CommitFailure(`${(error as Error).message} Nothing was imported; upload the file again.`);
      }
      const blocked = phiBlocked(detected, settings, dataset);
      if (blocked.length > 0) throw new CommitFailure(`${blocked[0]!.reason} Nothing was imported.`);
      const abort = settings.error_policy === 'abort';

      let replaced = 0;
      if (settings.mode === 'replace_range') {
        const result = await tx.execute(sql`
          update mon_rows set active = false, replaced_by = ${job.importId}
           where project_id = ${job.projectId} and dataset_id = ${dataset.id} and active
             and row_date between ${settings.range_from}::date and ${settings.range_to}::date`);
        replaced += result.rowCount ?? 0;
      }

      let batch: ConvertedRow[] = [];
      let convert: ReturnType<typeof rowConverter> | null = null;
      let nextProgress = PROGRESS_ROWS;
      reading: for await (const records of readRecordBatches(importChunks(db, job.projectId, job.importId), settings)) {
        for (const record of records) {
          if (!convert) {
            convert = rowConverter(settings, record.cells.length);
            if (settings.has_header) continue;
          }
          counts.read++;
          const converted = convert.convert(record);
          if (converted.errors.length > 0) {
            counts.err++;
            for (const error of converted.errors) {
              if (counts.errors.length >= MAX_ERRORS) break;
              counts.errors.push({ line: record.line, column: error.label, value: error.value, reason: error.reason });
            }
            if (abort && counts.errors.length >= MAX_ERRORS) {
              counts.stoppedEarly = true;
              break reading;
            }
          } else if (!abort || counts.err === 0) {
            counts.ok++;
            batch.push(converted);
            if (batch.length >= BATCH_ROWS) {
              await insertBatch(tx, job, dataset.id, batch);
              batch = [];
            }
          }
        }
        if (counts.read >= nextProgress) {
          await writeProgress(db, job, counts.read);
          nextProgress = counts.read + PROGRESS_ROWS;
        }
      }
      if (counts.read === 0) throw new CommitFailure('The file has no data rows; nothing was imported.');
      if (abort && counts.err > 0) {
        const found = counts.stoppedEarly ? `At least ${plural(counts.err, 'row')}` : plural(counts.err, 'row');
        throw new CommitFailure(
          `${found} of the file ${counts.err === 1 ? 'has' : 'have'} errors; nothing was imported. ` +
            'Correct the file and import it again, or choose to skip bad rows.',
        );
      }
      if (counts.ok === 0) throw new CommitFailure('No row of the file could be imported; see the errors.');
      await insertBatch(tx, job, dataset.id, batch);
      batch = [];
      await writeProgress(db, job, counts.read);
      if (settings.mode === 'upsert') replaced += await replaceByKey(tx, job, dataset.id, settings.key_columns);

      const [{ n } = { n: 0 }] = (
        await tx.execute<{ n: number }>(sql`
          select count(*)::int as n from mon_rows
           where project_id = ${job.projectId} and dataset_id = ${dataset.id} and active`)
      ).rows;
      const now = job.clock.now();
      await tx
        .update(monDatasets)
        .set({
          columns: mergedColumns(dataset.columns as DatasetColumn[], settings, detected, dataset.patientLevel),
          timeColumn: settings.time_column,
          version: dataset.version + 1,
          rowCount: n,
          updatedAt: now,
          updatedBy: job.userId,
        })
        .where(and(eq(monDatasets.projectId, job.projectId), eq(monDatasets.id, dataset.id)));
      await tx
        .update(monImports)
        .set({
          status: 'committed',
          rowsTotal: counts.read,
          rowsOk: counts.ok,
          rowsErr: counts.err,
          rowsReplaced: replaced,
          errors: counts.errors,
          message: null,
          progress: counts.read,
          committedAt: now,
          committedBy: job.userId,
        })
        .where(and(eq(monImports.projectId, job.projectId), eq(monImports.id, job.importId)));
      await audit(
        tx,
        job,
        'import_committed',
        {
          dataset_id: dataset.id,
          mode: settings.mode,
          rows_ok: counts.ok,
          rows_err: counts.err,
          rows_replaced: replaced,
          dataset_version: dataset.version + 1,
        },
        now,
      );
      return { replaced };
    });
    if (done === null) return outcome('skipped', datasetId, counts, 0, null);
    return outcome('committed', datasetId, counts, done.replaced, null);
  } catch (error) {
    let message: string;
    if (error instanceof CommitFailure || error instanceof CsvReadError) message = error.message;
    else {
      log.error({ err: error, importId: job.importId }, 'CSV import commit failed');
      message = SERVER_ERROR_MESSAGE;
    }
    await markFailed(db, job, message, counts);
    return outcome('failed', datasetId, { ...counts, ok: 0 }, 0, message);
  }
}

function outcome(
  status: CommitOutcome['status'],
  datasetId: number | null,
  counts: Counts,
  replaced: number,
  message: string | null,
): CommitOutcome {
  return {
    status,
    datasetId,
    rowsRead: counts.read,
    rowsOk: counts.ok,
    rowsErr: counts.err,
    rowsReplaced: replaced,
    message,
  };
}

/** Commits running in this process, by import id, and the outcomes of the last ones that ended. */
const running = new Map<number, Promise<CommitOutcome>>();
const ended = new Map<number, CommitOutcome>();
const ENDED_KEPT = 100;

/**
 * Runs the commit in the background (the caller does not wait) and, once it committed, recomputes the series of the
 * dataset's measures; a recompute failure is logged, never turned into a failed import.
 */
export function launchCommit(db: Database, job: CommitJob, log: CommitLogger): Promise<CommitOutcome> {
  const task = (async () => {
    const result = await runImportCommit(db, job, log);
    if (result.status === 'committed' && result.datasetId !== null) {
      await recomputeDatasetSeries(db, job.projectId, result.datasetId, job.clock.now()).catch((error) =>
        log.error({ err: error, datasetId: result.datasetId }, 'Series not recomputed after an import'),
      );
    }
    return result;
  })()
    .catch((error): CommitOutcome => {
      log.error({ err: error, importId: job.importId }, 'CSV import commit could not record its outcome');
      return {
        status: 'failed',
        datasetId: null,
        rowsRead: 0,
        rowsOk: 0,
        rowsErr: 0,
        rowsReplaced: 0,
        message: SERVER_ERROR_MESSAGE,
      };
    })
    .then((result) => {
      running.delete(job.importId);
      ended.set(job.importId, result);
      if (ended.size > ENDED_KEPT) ended.delete(ended.keys().next().value!);
      return result;
    });
  running.set(job.importId, task);
  return task;
}

/**
 * The outcome of a commit launched in this process, once it ends (tests, benchmarks): the running one's promise, or
 * the outcome of one that already ended; undefined when this process launched none for the import.
 */
export function waitForImport(importId: number): Promise<CommitOutcome> | undefined {
  const task = running.get(importId);
  if (task) return task;
  const result = ended.get(importId);
  return result ? Promise.resolve(result) : undefined;
}

/**
 * At start-up: imports left 'committing' by a process that stopped (their transaction was rolled back by
 * PostgreSQL) become 'failed'. It reads across projects on purpose: the sweep is the server's, not a person's. An
 * import whose commit is still running in another server instance holds its advisory lock and is left alone.
 */
export async function failInterruptedImports(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const failed = await tx
      .update(monImports)
      .set({ status: 'failed', message: INTERRUPTED_MESSAGE, rowsOk: 0, rowsReplaced: 0 })
      .where(and(eq(monImports.status, 'committing'), sql`pg_try_advisory_xact_lock(${LOCK_SPACE}, ${monImports.id})`))
      .returning({ id: monImports.id, projectId: monImports.projectId, datasetId: monImports.datasetId });
    for (const entry of failed) {
      await recordAudit(tx, {
        action: 'monitoring.import_failed',
        projectId: entry.projectId,
        subjectType: 'mon_import',
        subjectId: entry.id,
        data: { dataset_id: entry.datasetId, message: INTERRUPTED_MESSAGE },
      });
    }
    return failed.length;
  });
}
