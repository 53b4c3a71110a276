import { createHash } from 'node:crypto';
import { type DocumentCreate, POLICY_CONTENT_MAX_CHARS, POLICY_UPLOAD_TYPES } from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { policyUploadKeys, storedFiles } from '../../db/schema/index.js';
import { convertDocx, sniffUpload } from '../../lib/docx.js';
import { AppError } from '../../lib/errors.js';
import { storeFile } from '../../lib/files.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { insertDocument } from './documents.service.js';
import { queueFileText, wakeFileTextReader } from './file-text.service.js';
import { audit, htmlToText } from './policy-common.js';

/** Word and PDF import: convert (preview) and upload (a new draft). The type is read from the bytes, never the name. */

export const fileUrl = (projectId: number, fileId: number) =>
  `/api/projects/${projectId}/policy-management/files/${fileId}`;

/** Stores a file of the project once: the same bytes (a preview, then the save) reuse the stored copy. */
async function storeOnce(
  db: DbOrTx,
  actor: PolicyActor,
  file: { contentType: string; data: Buffer; fileName?: string },
  now: Date,
): Promise<number> {
  const sha256 = createHash('sha256').update(file.data).digest('hex');
  const [existing] = await db
    .select({ id: storedFiles.id })
    .from(storedFiles)
    .where(
      and(
        eq(storedFiles.projectId, actor.projectId),
        eq(storedFiles.sha256, sha256),
        eq(storedFiles.contentType, file.contentType),
        eq(storedFiles.fileName, file.fileName ?? ''),
      ),
    )
    .limit(1);
  if (existing) return existing.id;
  return storeFile(db, {
    projectId: actor.projectId,
    contentType: file.contentType,
    data: file.data,
    createdBy: actor.userId,
    fileName: file.fileName ?? '',
    createdAt: now,
  });
}

function kindOf(data: Buffer) {
  const kind = sniffUpload(data);
  if (!kind) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Only Word (.docx) and PDF files can be imported. This file is neither.',
      {
        file: ['Only Word (.docx) and PDF files can be imported. This file is neither.'],
      },
    );
  }
  return kind;
}

async function convert(db: DbOrTx, actor: PolicyActor, data: Buffer, now: Date) {
  const result = await convertDocx(data, async (image) =>
    fileUrl(actor.projectId, await storeOnce(db, actor, image, now)),
  );
  // The Word title becomes the policy's title; left in the text it would be a second page title.
  const html = sanitizeHtml(result.html).replace(/^\s*<h1>([\s\S]*?)<\/h1>/, (heading, inner: string) =>
    htmlToText(inner) === result.title.trim() ? '' : heading,
  );
  if (html.length > POLICY_CONTENT_MAX_CHARS) {
    const message = 'The converted text is longer than one policy may be (5 million characters). Split the document.';
    throw new AppError('PAYLOAD_TOO_LARGE', message, { file: [message] });
  }
  return { ...result, html };
}

export async function convertUpload(db: DbOrTx, actor: PolicyActor, data: Buffer, now: Date) {
  if (kindOf(data) !== 'docx') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Only Word (.docx) files can be converted. A PDF is kept as it is.', {
      file: ['Only Word (.docx) files can be converted. A PDF is kept as it is.'],
    });
  }
  const result = await convert(db, actor, data, now);
  await audit(
    db,
    actor,
    'document_converted',
    { type: 'project', id: actor.projectId },
    {
      bytes: data.length,
      images: result.images,
    },
    now,
  );
  return result;
}

const withoutExtension = (name: string) =>
  name
    .replace(/\.(docx|pdf)$/i, '')
    .trim()
    .slice(0, 200);

/**
 * A new draft from an uploaded file. With an Idempotency-Key, a retry of the same upload answers with the document
 * the first attempt created (`replayed`), so a flaky connection never makes two drafts.
 */
export async function uploadDocument(
  db: DbOrTx,
  actor: PolicyActor,
  upload: { data: Buffer; fileName: string; idempotencyKey: string | null; fields: Partial<DocumentCreate> },
  now: Date,
): Promise<{ documentId: number; replayed: boolean }> {
  const replay = async (tx: DbOrTx) => {
    if (!upload.idempotencyKey) return null;
    const [row] = await tx
      .select({ documentId: policyUploadKeys.documentId })
      .from(policyUploadKeys)
      .where(
        and(
          eq(policyUploadKeys.projectId, actor.projectId),
          eq(policyUploadKeys.userId, actor.userId),
          eq(policyUploadKeys.key, upload.idempotencyKey),
        ),
      );
    return row?.documentId ?? null;
  };
  const earlier = await replay(db);
  if (earlier !== null) return { documentId: earlier, replayed: true };

  const kind = kindOf(upload.data);
  const converted = kind === 'docx' ? await convert(db, actor, upload.data, now) : null;
  const title = upload.fields.title || converted?.title || withoutExtension(upload.fileName) || 'Untitled policy';
  const result = await db.transaction(async (tx) => {
    if (upload.idempotencyKey) {
      // Two attempts with one key racing: the second waits here, then finds the first one's document.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${upload.idempotencyKey}), ${actor.projectId})`);
      const raced = await replay(tx);
      if (raced !== null) return { documentId: raced, replayed: true };
    }
    const sourceFileId = await storeOnce(
      tx,
      actor,
      {
        contentType: POLICY_UPLOAD_TYPES[kind],
        data: upload.data,
        fileName: upload.fileName.slice(0, 200),
      },
      now,
    );
    const documentId = await insertDocument(
      tx,
      actor,
      {
        title: title.slice(0, 200),
        number: upload.fields.number ?? null,
        department_id: upload.fields.department_id ?? null,
        owner_id: null,
        review_interval_months: undefined,
        next_review_on: null,
        content: '',
      },
      now,
      {
        content: converted?.html ?? '',
        sourceFileId,
        changeSummary: `Imported from ${upload.fileName || (kind === 'pdf' ? 'a PDF file' : 'a Word file')}.`,
      },
    );
    // A PDF's text is read by the background job (file-text.service.ts), so search finds it; queued with the draft.
    if (kind === 'pdf') await queueFileText(tx, actor.projectId, sourceFileId);
    if (upload.idempotencyKey) {
      await tx.insert(policyUploadKeys).values({
        projectId: actor.projectId,
        userId: actor.userId,
        key: upload.idempotencyKey,
        documentId,
        createdAt: now,
      });
    }
    return { documentId, replayed: false };
  });
  if (kind === 'pdf' && !result.replayed) wakeFileTextReader();
  return result;
}
