import { POLICY_CONTENT_MAX_CHARS, type SourceText } from '@portal/shared';
import { and, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyDocuments, policyFileTexts, policyVersions, storedFiles } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { PDF_TEXT_MESSAGES, PdfTextError, readPdfText } from '../../lib/pdf-text.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { documentOf, refreshSearchText } from './documents.service.js';
import { versionsVisibleTo } from './visibility.js';

/**
 * The text of uploaded PDFs (issue 28): a policy_file_texts row per stored PDF, queued in the transaction that gives
 * a version the file, read by the background job (jobs/index.ts, FILE_TEXTS) through unsafeReadQueuedFileTexts,
 * and added to the search text of every document whose current or draft version uses the file. The row's queued_at
 * is also when reading started (a row 'reading' for longer than STALE_AFTER_MS belongs to a job that died).
 */

const PDF = 'application/pdf';
/** A file is read at most this many times (a failure or a job that died counts as one). */
export const MAX_FILE_TEXT_ATTEMPTS = 3;
/** A row still 'reading' after this long was left by a job that died: it is read again. */
const STALE_AFTER_MS = 10 * 60_000;
/** A failed file is tried again no sooner than this after it failed. */
const RETRY_AFTER_MS = 10 * 60_000;
const DIED_MESSAGE = 'Reading the text of this PDF stopped before it finished, several times.';

// ---------------------------------------------------------------- queueing

/** Queues the reading of a stored file if it is a PDF not read yet, in the caller's transaction. True if queued. */
export async function queueFileText(tx: DbOrTx, projectId: number, fileId: number): Promise<boolean> {
  const queued = await tx.execute(sql`
    insert into ${policyFileTexts} (file_id, project_id, state)
    select ${storedFiles.id}, ${storedFiles.projectId}, 'queued' from ${storedFiles}
    where ${storedFiles.id} = ${fileId} and ${storedFiles.projectId} = ${projectId} and ${storedFiles.contentType} = ${PDF}
    on conflict (file_id) do nothing`);
  return (queued.rowCount ?? 0) > 0;
}

let wake: (() => Promise<unknown>) | null = null;

/** The background jobs register how to start a reading run at once (nothing when they are not running: tests). */
export function onFileTextQueued(handler: (() => Promise<unknown>) | null): void {
  wake = handler;
}

/** Starts a reading run after the commit that queued a file; the job's minute sweep catches any that is missed. */
export function wakeFileTextReader(): void {
  void wake?.().catch(() => undefined);
}

/** Backfill: queues every PDF that is a policy version's source file and has no row yet. Returns how many. */
export async function unsafeQueueMissingFileTexts(db: DbOrTx, now: Date): Promise<number> {
  const queued = await db.execute(sql`
    insert into ${policyFileTexts} (file_id, project_id, state, queued_at)
    select distinct f.id, f.project_id, 'queued', ${now.toISOString()}::timestamptz
    from ${policyVersions} v join ${storedFiles} f on f.id = v.source_file_id and f.project_id = v.project_id
    where f.content_type = ${PDF} and not exists (select 1 from ${policyFileTexts} t where t.file_id = f.id)
    on conflict (file_id) do nothing`);
  return queued.rowCount ?? 0;
}

// ---------------------------------------------------------------- reading (the job)

/** Whether a file waits to be read, or a reading is stale: claimNext's and giveUpOnDeadReads' rows, read only. */
async function anythingToRead(db: DbOrTx, now: Date): Promise<boolean> {
  const stale = new Date(now.getTime() - STALE_AFTER_MS).toISOString();
  const retry = new Date(now.getTime() - RETRY_AFTER_MS).toISOString();
  const result = await db.execute<{ any: boolean }>(sql`
    select exists (select 1 from ${policyFileTexts}
      where state = 'queued'
        or (state = 'reading' and queued_at < ${stale}::timestamptz)
        or (attempts < ${MAX_FILE_TEXT_ATTEMPTS} and state = 'failed' and finished_at < ${retry}::timestamptz)) as any`);
  return result.rows[0]?.any === true;
}

/** Takes the next file to read (queued, left by a dead job, or failed and due a retry), safe with several servers. */
async function claimNext(db: DbOrTx, now: Date) {
  const stale = new Date(now.getTime() - STALE_AFTER_MS).toISOString();
  const retry = new Date(now.getTime() - RETRY_AFTER_MS).toISOString();
  const result = await db.execute<{ file_id: number; project_id: number; attempts: number }>(sql`
    update ${policyFileTexts} set state = 'reading', progress = 0, attempts = attempts + 1, error = null,
      queued_at = ${now.toISOString()}::timestamptz, finished_at = null
    where file_id = (
      select file_id from ${policyFileTexts}
      where state = 'queued'
        or (attempts < ${MAX_FILE_TEXT_ATTEMPTS} and state = 'reading' and queued_at < ${stale}::timestamptz)
        or (attempts < ${MAX_FILE_TEXT_ATTEMPTS} and state = 'failed' and finished_at < ${retry}::timestamptz)
      order by queued_at, file_id limit 1 for update skip locked)
    returning file_id, project_id, attempts`);
  return result.rows[0] ?? null;
}

/** Rows left 'reading' by jobs that died too often: failed for good, so the page stops showing progress. */
async function giveUpOnDeadReads(db: DbOrTx, now: Date) {
  const stale = new Date(now.getTime() - STALE_AFTER_MS);
  const dead = await db
    .update(policyFileTexts)
    .set({ state: 'failed', error: DIED_MESSAGE, finishedAt: now })
    .where(
      and(
        eq(policyFileTexts.state, 'reading'),
        sql`${policyFileTexts.attempts} >= ${MAX_FILE_TEXT_ATTEMPTS}`,
        sql`${policyFileTexts.queuedAt} < ${stale.toISOString()}::timestamptz`,
      ),
    )
    .returning({ fileId: policyFileTexts.fileId, projectId: policyFileTexts.projectId });
  for (const row of dead) await auditRead(db, row.projectId, row.fileId, { state: 'failed', error: DIED_MESSAGE }, now);
}

const auditRead = (db: DbOrTx, projectId: number, fileId: number, data: Record<string, unknown>, at: Date) =>
  recordAudit(db, {
    action: 'policy.file_text_read',
    projectId,
    subjectType: 'stored_file',
    subjectId: fileId,
    data,
    at,
  });

/** Search text of every document of the project whose current or draft version has the file as its source. */
async function refreshDocumentsUsing(tx: DbOrTx, projectId: number, fileId: number) {
  const documents = await tx
    .selectDistinct({ id: policyDocuments.id })
    .from(policyDocuments)
    .innerJoin(
      policyVersions,
      or(
        eq(policyVersions.id, policyDocuments.currentVersionId),
        eq(policyVersions.id, policyDocuments.draftVersionId),
      ),
    )
    .where(
      and(
        eq(policyDocuments.projectId, projectId),
        eq(policyVersions.projectId, projectId),
        eq(policyVersions.sourceFileId, fileId),
      ),
    );
  for (const doc of documents) await refreshSearchText(tx, projectId, doc.id);
}

/** Saves progress at most every 5 points, one write at a time, and only while the row is still this attempt's. */
function progressSaver(db: DbOrTx, fileId: number, attempts: number) {
  let saved = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const mine = and(
    eq(policyFileTexts.fileId, fileId),
    eq(policyFileTexts.state, 'reading'),
    eq(policyFileTexts.attempts, attempts),
  );
  return {
    mine,
    report(percent: number) {
      if (percent >= 100 || percent - saved < 5) return;
      saved = percent;
      writing = writing
        .then(() => db.update(policyFileTexts).set({ progress: percent }).where(mine))
        .catch(() => undefined);
    },
    settled: () => writing,
  };
}

/**
 * Reads every queued file, one after another, until none is left (or `limit` files were read). Called by the job
 * and by tests; "unsafe": it reads every project's files, for no one in particular. Returns how many it read.
 */
export async function unsafeReadQueuedFileTexts(
  db: DbOrTx,
  now: Date,
  options: { limit?: number; timeoutMs?: number } = {},
): Promise<number> {
  // The clock's time as the run goes on (a run may read for minutes; a test's clock may be elsewhere in time).
  const started = performance.now();
  const at = () => new Date(now.getTime() + Math.round(performance.now() - started));
  // Most runs find nothing to do: they write nothing either, since any write, even of no row, makes every instance
  // forget the answers it keeps (decision record 032).
  if (!(await anythingToRead(db, now))) return 0;
  await giveUpOnDeadReads(db, now);
  let read = 0;
  for (; read < (options.limit ?? 100); read++) {
    const row = await claimNext(db, at());
    if (!row) break;
    const [file] = await db
      .select({ data: storedFiles.data })
      .from(storedFiles)
      .where(and(eq(storedFiles.id, row.file_id), eq(storedFiles.projectId, row.project_id)));
    const progress = progressSaver(db, row.file_id, row.attempts);
    let outcome: Awaited<ReturnType<typeof readPdfText>> | PdfTextError;
    try {
      if (!file) throw new PdfTextError(PDF_TEXT_MESSAGES.unreadable);
      outcome = await readPdfText(file.data, { timeoutMs: options.timeoutMs, onProgress: progress.report });
    } catch (error) {
      outcome = error instanceof PdfTextError ? error : new PdfTextError(PDF_TEXT_MESSAGES.unreadable);
    }
    await progress.settled();
    const finishedAt = at();
    await db.transaction(async (tx) => {
      if (outcome instanceof PdfTextError) {
        const [failed] = await tx
          .update(policyFileTexts)
          .set({ state: 'failed', error: outcome.message, finishedAt, progress: 0 })
          .where(progress.mine)
          .returning({ fileId: policyFileTexts.fileId });
        if (failed) {
          await auditRead(tx, row.project_id, row.file_id, { state: 'failed', error: outcome.message }, finishedAt);
        }
        return;
      }
      const [done] = await tx
        .update(policyFileTexts)
        .set({
          state: 'done',
          method: outcome.method,
          pages: outcome.pages,
          // As long as a policy's own text may be: search reads the first 500,000 characters anyway.
          text: outcome.text.slice(0, POLICY_CONTENT_MAX_CHARS),
          progress: 100,
          error: null,
          finishedAt,
        })
        .where(progress.mine)
        .returning({ fileId: policyFileTexts.fileId });
      if (!done) return; // taken over meanwhile (this run was taken for dead): the other run saves its own
      await refreshDocumentsUsing(tx, row.project_id, row.file_id);
      const data = { state: 'done', method: outcome.method, pages: outcome.pages, characters: outcome.text.length };
      await auditRead(tx, row.project_id, row.file_id, data, finishedAt);
    });
  }
  return read;
}

// ---------------------------------------------------------------- reading (the API)

/**
 * What was read of a version's source PDF, for someone who may see the version (versionsVisibleTo, as loading it);
 * 404 otherwise, and for a version without a PDF. A PDF uploaded before this existed reads as queued.
 */
export async function sourceTextOf(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  versionId: number,
): Promise<SourceText> {
  await documentOf(db, actor, documentId);
  const [row] = await db
    .select({
      state: policyFileTexts.state,
      method: policyFileTexts.method,
      progress: policyFileTexts.progress,
      pages: policyFileTexts.pages,
      error: policyFileTexts.error,
      text: policyFileTexts.text,
      fileId: storedFiles.id,
    })
    .from(policyVersions)
    .innerJoin(
      storedFiles,
      and(eq(storedFiles.id, policyVersions.sourceFileId), eq(storedFiles.projectId, actor.projectId)),
    )
    .leftJoin(policyFileTexts, eq(policyFileTexts.fileId, storedFiles.id))
    .where(
      and(
        eq(policyVersions.projectId, actor.projectId),
        eq(policyVersions.documentId, documentId),
        eq(policyVersions.id, versionId),
        eq(storedFiles.contentType, PDF),
        versionsVisibleTo(actor),
      ),
    );
  if (!row) throw notFound('This version has no PDF file.');
  return {
    state: (row.state ?? 'queued') as SourceText['state'],
    method: (row.method ?? null) as SourceText['method'],
    progress: row.progress ?? 0,
    pages: row.pages ?? null,
    error: row.error ?? null,
    text: row.state === 'done' ? (row.text ?? '') : '',
  };
}
