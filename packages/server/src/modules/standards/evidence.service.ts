import {
  STD_EVIDENCE_EXPIRING_DAYS,
  STD_EVIDENCE_FILE_HELP,
  STD_EVIDENCE_FILE_TYPES,
  STD_EVIDENCE_KIND_LABELS,
  STD_EVIDENCE_LIMITS,
  STD_EVIDENCE_REVIEW_STATUSES,
  STD_EVIDENCE_STATUS_LABELS,
  STD_STATUS_LABELS,
  type StdEvidenceFileExtension,
  type StdEvidenceFileFields,
  type StdEvidenceInput,
  type StdEvidenceItem,
  type StdEvidenceKind,
  type StdEvidenceStatus,
  type StdEvidenceUpdate,
  type StdReadiness,
  stdEvidenceExtension,
} from '@portal/shared';
import { and, asc, eq, inArray, isNotNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { loadProjectRow } from '../../db/project-row.js';
import {
  auditEvents,
  policyDocuments,
  projects,
  stdEvidence,
  stdNodes,
  stdReqAssessments,
  storedFiles,
  traceLinks,
  users,
} from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { isDocxPackage } from '../../lib/docx-worker.js';
import { AppError, notFound } from '../../lib/errors.js';
import { deleteFile, storeFile } from '../../lib/files.js';
import { authorize, can } from '../../policies/rules.js';
import type { StandardsActor } from '../../policies/standards.js';
import { type ElementFacts, elementFacts, evidenceRules } from '../../policies/standards-records.js';
import { loadReq, type ReqRow } from './records.js';
import { isoDay, standardsAudit } from './route-kit.js';

/**
 * Evidence on standard elements (docs/standards.md "Evidence"; DOMAIN.md 3.5 "Evidence validity"): links, files and
 * notes attached to an element assessment with a review status and an expiry date. Whoever may link evidence to the
 * element (policies/standards-records.ts evidenceRules) adds, changes and removes it; only those who may change the element approve or
 * reject it. Every change is audited on the element (its history). Also here: what the tree filters, readiness and
 * the daily job read about expired and expiring evidence, items and linked policies alike.
 */

const DAY = 86_400_000;
/** The last day that still counts as "expiring" (today + 60 days). */
export const expiringUntil = (now: Date) => isoDay(new Date(now.getTime() + STD_EVIDENCE_EXPIRING_DAYS * DAY));

export type EvidenceState = 'expired' | 'expiring';

/** An expiry date against today: expired once the day has passed, expiring within 60 days. */
export function expiryState(expiresOn: string | null, today: string, soon: string): EvidenceState | null {
  if (expiresOn === null) return null;
  if (expiresOn < today) return 'expired';
  return expiresOn <= soon ? 'expiring' : null;
}

/**
 * A linked policy's evidence (decision record 015): expired while archived, never published, or past its review
 * date; expiring when its review falls within 60 days. `reason` names the expiry (the job acts once per reason).
 */
export function policyEvidenceState(
  doc: { status: string; currentVersionId: number | null; nextReviewOn: string | null },
  today: string,
  soon: string,
): { state: EvidenceState; reason: string } | null {
  if (doc.status === 'archived') return { state: 'expired', reason: 'archived' };
  if (doc.currentVersionId === null) return { state: 'expired', reason: 'unpublished' };
  if (doc.nextReviewOn === null) return null;
  const state = expiryState(doc.nextReviewOn, today, soon);
  return state ? { state, reason: `review:${doc.nextReviewOn}` } : null;
}

const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', message, { [field]: [message] });

// ------------------------------------------------------------------------------------------------ reading

/** The evidence of one element, oldest first (the element panel). */
export async function evidenceOfElement(
  db: DbOrTx,
  projectId: number,
  reqId: number,
  now: Date,
): Promise<StdEvidenceItem[]> {
  const rows = await db
    .select({
      evidence: stdEvidence,
      fileName: storedFiles.fileName,
      fileSize: storedFiles.size,
      fileType: storedFiles.contentType,
      creator: personName,
    })
    .from(stdEvidence)
    .leftJoin(storedFiles, and(eq(storedFiles.id, stdEvidence.fileId), eq(storedFiles.projectId, projectId)))
    .leftJoin(users, eq(users.id, stdEvidence.createdBy))
    .where(and(eq(stdEvidence.projectId, projectId), eq(stdEvidence.reqAssessmentId, reqId)))
    .orderBy(asc(stdEvidence.createdAt), asc(stdEvidence.id));
  const today = isoDay(now);
  const soon = expiringUntil(now);
  return rows.map(({ evidence: e, fileName, fileSize, fileType, creator }) => {
    const state = expiryState(e.expiresOn, today, soon);
    return {
      id: e.id,
      kind: e.kind as StdEvidenceKind,
      title: e.title,
      url: e.kind === 'link' ? e.url : null,
      file:
        e.kind === 'file' && e.fileId !== null && fileSize !== null
          ? { id: e.fileId, name: fileName ?? '', size: fileSize, content_type: fileType ?? '' }
          : null,
      note: e.note,
      status: e.status as StdEvidenceStatus,
      expires_on: e.expiresOn,
      expired: state === 'expired',
      expiring: state === 'expiring',
      created_by: e.createdBy === null ? null : { id: e.createdBy, name: creator ?? '' },
      created_at: e.createdAt.toISOString(),
    };
  });
}

type EvidenceRow = typeof stdEvidence.$inferSelect;

/** A piece of evidence of the actor's project, or 404. */
async function loadEvidence(db: DbOrTx, projectId: number, id: number, lock = false): Promise<EvidenceRow> {
  return loadProjectRow(db, stdEvidence, projectId, id, 'Evidence not found.', lock);
}

/** The element, and its facts for the evidence rules (403 unless the actor may add evidence to it). */
async function evidenceAccess(db: DbOrTx, actor: StandardsActor, reqId: number, lock = false) {
  const req = await loadReq(db, actor.projectId, reqId, lock);
  const facts = await elementFacts(db, actor, req);
  authorize(evidenceRules, 'add', actor, facts);
  return { req, facts };
}

/** Refuses an upload before its bytes are read: the element must exist and the actor may add evidence to it. */
export async function checkMayAddEvidence(db: DbOrTx, actor: StandardsActor, reqId: number): Promise<void> {
  await evidenceAccess(db, actor, reqId);
}

// ------------------------------------------------------------------------------------------------ files

const startsWith = (data: Buffer, bytes: number[]) =>
  data.length >= bytes.length && bytes.every((b, i) => data[i] === b);
const isZip = (data: Buffer) => startsWith(data, [0x50, 0x4b, 0x03, 0x04]);
const isOle = (data: Buffer) => startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Plain text in any 8-bit encoding (Excel still writes CSV in Windows-1252): no control bytes but tab, CR, LF, FF. */
function isText(data: Buffer): boolean {
  for (const byte of data) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) return false;
    if (byte === 0x7f) return false;
  }
  return true;
}

/** What each accepted content type's first bytes look like: the name must tell the truth about the content. */
const SNIFF: Record<(typeof STD_EVIDENCE_FILE_TYPES)[StdEvidenceFileExtension], (data: Buffer) => boolean> = {
  'application/pdf': (d) => d.subarray(0, 5).toString('latin1') === '%PDF-',
  'application/msword': isOle,
  'application/vnd.ms-excel': isOle,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': isDocxPackage,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': (d) =>
    isZip(d) && d.includes('[Content_Types].xml', 0, 'latin1') && d.includes('xl/workbook', 0, 'latin1'),
  'image/png': (d) => startsWith(d, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (d) => startsWith(d, [0xff, 0xd8, 0xff]),
  'image/gif': (d) => ['GIF87a', 'GIF89a'].includes(d.subarray(0, 6).toString('latin1')),
  'image/webp': (d) =>
    d.subarray(0, 4).toString('latin1') === 'RIFF' && d.subarray(8, 12).toString('latin1') === 'WEBP',
  'text/csv': isText,
  'text/plain': isText,
};

const KIND_NAMES: Record<StdEvidenceFileExtension, string> = {
  pdf: 'PDF',
  doc: 'Word',
  docx: 'Word',
  xls: 'Excel',
  xlsx: 'Excel',
  png: 'PNG image',
  jpg: 'JPEG image',
  jpeg: 'JPEG image',
  gif: 'GIF image',
  webp: 'WebP image',
  csv: 'CSV',
  txt: 'text',
};

/**
 * The name an uploaded file is kept under: no folders, no control or format characters (which include the
 * right-to-left override that makes "cod.exe" read as "exe.doc"), none of `"<>:|?*;`, spaces collapsed, no leading
 * dots, at most 200 characters with its extension kept.
 */
export function cleanFileName(raw: string): { name: string; ext: StdEvidenceFileExtension } | null {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/["<>:|?*;]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  const ext = stdEvidenceExtension(cleaned);
  if (!ext) return null;
  const room = STD_EVIDENCE_LIMITS.fileName - ext.length - 1;
  const stem =
    cleaned
      .slice(0, cleaned.length - ext.length - 1)
      .replace(/^[.\s]+/, '')
      .slice(0, room)
      .trim() || 'evidence';
  return { name: `${stem}.${ext}`, ext };
}

/** Checks an uploaded evidence file: a kind we accept by its name, and content that is what the name says. */
export function checkEvidenceFile(data: Buffer, rawName: string): { name: string; contentType: string } {
  if (data.length === 0) throw invalid('file', 'The file is empty.');
  const clean = cleanFileName(rawName);
  if (!clean) throw invalid('file', `Choose a file of a kind kept as evidence: ${STD_EVIDENCE_FILE_HELP}`);
  const contentType = STD_EVIDENCE_FILE_TYPES[clean.ext];
  if (!SNIFF[contentType](data)) {
    throw invalid(
      'file',
      `The file is not the ${KIND_NAMES[clean.ext]} file its name says. Save it again as ${KIND_NAMES[clean.ext]}, or rename it to what it is.`,
    );
  }
  return { name: clean.name, contentType };
}

/** GET /evidence/{id}/file: the bytes of a file evidence (any standards role). */
export async function evidenceFile(db: DbOrTx, actor: StandardsActor, id: number) {
  const row = await loadEvidence(db, actor.projectId, id);
  if (row.kind !== 'file' || row.fileId === null) throw notFound('This evidence has no file.');
  const [file] = await db
    .select({ name: storedFiles.fileName, contentType: storedFiles.contentType, data: storedFiles.data })
    .from(storedFiles)
    .where(and(eq(storedFiles.projectId, actor.projectId), eq(storedFiles.id, row.fileId)));
  if (!file) throw notFound('This evidence has no file.');
  return { ...file, name: file.name || `evidence-${id}` };
}

/** `attachment; filename="..."; filename*=UTF-8''...`: an ASCII name for old clients, the real one for the rest. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\w .()-]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

// ------------------------------------------------------------------------------------------------ changes

function describeNew(input: {
  kind: StdEvidenceKind;
  title: string;
  status: StdEvidenceStatus;
  expiresOn: string | null;
}) {
  const parts = [STD_EVIDENCE_KIND_LABELS[input.kind], STD_EVIDENCE_STATUS_LABELS[input.status]];
  if (input.expiresOn) parts.push(`expires ${input.expiresOn}`);
  return `Evidence added: ${input.title} (${parts.join(', ')})`;
}

/** The status a new piece of evidence gets: in review unless said; approved and rejected for reviewers only. */
function newStatus(
  wanted: StdEvidenceStatus | undefined,
  actor: StandardsActor,
  element: ElementFacts,
): StdEvidenceStatus {
  const status = wanted ?? 'in_review';
  if (STD_EVIDENCE_REVIEW_STATUSES.includes(status)) authorize(evidenceRules, 'review', actor, element);
  return status;
}

async function insertEvidence(
  tx: DbOrTx,
  actor: StandardsActor,
  req: ReqRow,
  values: {
    kind: StdEvidenceKind;
    title: string;
    url: string | null;
    fileId: number | null;
    note: string;
    status: StdEvidenceStatus;
    expiresOn: string | null;
  },
  now: Date,
  extra: Record<string, unknown> = {},
) {
  const [row] = await tx
    .insert(stdEvidence)
    .values({
      projectId: actor.projectId,
      reqAssessmentId: req.id,
      ...values,
      createdBy: actor.userId,
      updatedBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: stdEvidence.id });
  await standardsAudit(
    tx,
    actor,
    'evidence_added',
    { type: 'std_req_assessment', id: req.id },
    {
      evidence_id: row!.id,
      kind: values.kind,
      title: values.title,
      status: values.status,
      expires_on: values.expiresOn,
      ...extra,
      summary: [describeNew(values)],
    },
    now,
  );
}

/** POST /req-assessments/{id}/evidence: a link or a note. */
export async function addEvidence(
  db: Database,
  actor: StandardsActor,
  reqId: number,
  input: StdEvidenceInput,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { req, facts } = await evidenceAccess(tx, actor, reqId);
    await insertEvidence(
      tx,
      actor,
      req,
      {
        kind: input.kind,
        title: input.title,
        url: input.kind === 'link' ? input.url : null,
        fileId: null,
        note: input.note,
        status: newStatus(input.status, actor, facts),
        expiresOn: input.expires_on,
      },
      now,
      input.kind === 'link' ? { url: input.url } : {},
    );
  });
}

/** POST /req-assessments/{id}/evidence/file: a file (already read; checked and stored here). */
export async function addFileEvidence(
  db: Database,
  actor: StandardsActor,
  reqId: number,
  fields: StdEvidenceFileFields,
  upload: { data: Buffer; fileName: string },
  now: Date,
): Promise<void> {
  const file = checkEvidenceFile(upload.data, upload.fileName);
  await db.transaction(async (tx) => {
    const { req, facts } = await evidenceAccess(tx, actor, reqId);
    const status = newStatus(fields.status, actor, facts);
    const fileId = await storeFile(tx, {
      projectId: actor.projectId,
      contentType: file.contentType,
      data: upload.data,
      createdBy: actor.userId,
      fileName: file.name,
      createdAt: now,
    });
    await insertEvidence(
      tx,
      actor,
      req,
      {
        kind: 'file',
        title: fields.title ?? file.name,
        url: null,
        fileId,
        note: fields.note,
        status,
        expiresOn: fields.expires_on,
      },
      now,
      { file_id: fileId, file_name: file.name, size: upload.data.length, content_type: file.contentType },
    );
  });
}

/**
 * PUT /evidence/{id}: its title, note, status or expiry (answers the element's id). Approving and rejecting are for those who may change the
 * element; when anyone else changes approved or rejected evidence, it goes back to in review.
 */
export async function updateEvidence(
  db: Database,
  actor: StandardsActor,
  id: number,
  input: StdEvidenceUpdate,
  now: Date,
): Promise<number> {
  const reqId = await db.transaction(async (tx) => {
    const row = await loadEvidence(tx, actor.projectId, id, true);
    const { req, facts } = await evidenceAccess(tx, actor, row.reqAssessmentId);
    const review = can(evidenceRules, 'review', actor, facts);
    const title = input.title ?? row.title;
    const note = input.note ?? row.note;
    const expiresOn = input.expires_on === undefined ? row.expiresOn : input.expires_on;
    const current = row.status as StdEvidenceStatus;
    let status = input.status ?? current;
    if (!review) {
      if (status !== current && STD_EVIDENCE_REVIEW_STATUSES.includes(status)) {
        authorize(evidenceRules, 'review', actor, facts);
      }
      const edited = title !== row.title || note !== row.note || expiresOn !== row.expiresOn;
      if (edited && STD_EVIDENCE_REVIEW_STATUSES.includes(status)) status = 'in_review';
    }
    const summary: string[] = [];
    const name = `Evidence ${row.title}`;
    if (title !== row.title) summary.push(`${name}: title → ${title}`);
    if (status !== current) {
      summary.push(`${name}: ${STD_EVIDENCE_STATUS_LABELS[current]} → ${STD_EVIDENCE_STATUS_LABELS[status]}`);
    }
    if (expiresOn !== row.expiresOn)
      summary.push(`${name}: expires ${row.expiresOn ?? 'never'} → ${expiresOn ?? 'never'}`);
    if (note !== row.note) summary.push(`${name}: note changed`);
    if (summary.length === 0) return req.id;
    await tx
      .update(stdEvidence)
      .set({ title, note, status, expiresOn, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(stdEvidence.projectId, actor.projectId), eq(stdEvidence.id, row.id)));
    await standardsAudit(
      tx,
      actor,
      'evidence_updated',
      { type: 'std_req_assessment', id: req.id },
      {
        evidence_id: row.id,
        ...(status !== current ? { status: { from: current, to: status } } : {}),
        ...(expiresOn !== row.expiresOn ? { expires_on: { from: row.expiresOn, to: expiresOn } } : {}),
        summary,
        changes: changes(
          { title: row.title, status: current, expires_on: row.expiresOn, note: row.note },
          { title, status, expires_on: expiresOn, note },
        ),
      },
      now,
    );
    return req.id;
  });
  return reqId;
}

/** DELETE /evidence/{id}: the evidence and its stored file. */
export async function removeEvidence(db: Database, actor: StandardsActor, id: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await loadEvidence(tx, actor.projectId, id, true);
    const { req } = await evidenceAccess(tx, actor, row.reqAssessmentId);
    await tx.delete(stdEvidence).where(and(eq(stdEvidence.projectId, actor.projectId), eq(stdEvidence.id, row.id)));
    // An edition upgrade copies evidence to the new assessment sharing its file: the file goes with the last copy.
    if (row.fileId !== null) {
      const [shared] = await tx
        .select({ id: stdEvidence.id })
        .from(stdEvidence)
        .where(and(eq(stdEvidence.projectId, actor.projectId), eq(stdEvidence.fileId, row.fileId)))
        .limit(1);
      if (!shared) await deleteFile(tx, row.fileId);
    }
    await standardsAudit(
      tx,
      actor,
      'evidence_removed',
      { type: 'std_req_assessment', id: req.id },
      {
        evidence_id: row.id,
        kind: row.kind,
        title: row.title,
        status: row.status,
        summary: [`Evidence removed: ${row.title}`],
      },
      now,
    );
  });
}

// ------------------------------------------------------------------------------------------------ tree, readiness

/**
 * What the tree's evidence filters read for one assessment: the elements with approved evidence that has not
 * expired (`valid`), the elements with evidence items expired or expiring (`alerts`, rejected ones left out), and
 * the nodes whose linked policies' evidence is expired or expiring (`policyAlerts`).
 */
export async function evidenceSignals(db: DbOrTx, projectId: number, assessmentId: number, now: Date) {
  const today = isoDay(now);
  const soon = expiringUntil(now);
  const items = await db
    .select({ reqId: stdEvidence.reqAssessmentId, status: stdEvidence.status, expiresOn: stdEvidence.expiresOn })
    .from(stdEvidence)
    .innerJoin(
      stdReqAssessments,
      and(eq(stdReqAssessments.id, stdEvidence.reqAssessmentId), eq(stdReqAssessments.projectId, projectId)),
    )
    .where(and(eq(stdEvidence.projectId, projectId), eq(stdReqAssessments.assessmentId, assessmentId)));
  const valid = new Set<number>();
  const alerts = new Set<number>();
  for (const item of items) {
    const state = expiryState(item.expiresOn, today, soon);
    if (item.status === 'approved' && state !== 'expired') valid.add(item.reqId);
    if (item.status !== 'rejected' && state !== null) alerts.add(item.reqId);
  }
  const policies = await db
    .select({
      nodeId: traceLinks.nodeId,
      status: policyDocuments.status,
      currentVersionId: policyDocuments.currentVersionId,
      nextReviewOn: policyDocuments.nextReviewOn,
    })
    .from(traceLinks)
    .innerJoin(
      policyDocuments,
      and(eq(policyDocuments.id, traceLinks.targetId), eq(policyDocuments.projectId, projectId)),
    )
    .where(and(eq(traceLinks.projectId, projectId), eq(traceLinks.targetType, 'policy')));
  const policyAlerts = new Set<number>();
  for (const policy of policies) {
    if (policyEvidenceState(policy, today, soon)) policyAlerts.add(policy.nodeId);
  }
  return { valid, alerts, policyAlerts };
}

/** Readiness: the assessment's evidence items (not rejected) expired or expiring, expired first, soonest first. */
export async function expiringEvidenceItems(
  db: DbOrTx,
  projectId: number,
  assessmentId: number,
  now: Date,
): Promise<StdReadiness['evidence_items']> {
  const today = isoDay(now);
  const soon = expiringUntil(now);
  const rows = await db
    .select({
      id: stdEvidence.id,
      reqId: stdEvidence.reqAssessmentId,
      refId: stdNodes.refId,
      title: stdEvidence.title,
      expiresOn: stdEvidence.expiresOn,
    })
    .from(stdEvidence)
    .innerJoin(
      stdReqAssessments,
      and(eq(stdReqAssessments.id, stdEvidence.reqAssessmentId), eq(stdReqAssessments.projectId, projectId)),
    )
    .innerJoin(stdNodes, eq(stdNodes.id, stdReqAssessments.nodeId))
    .where(
      and(
        eq(stdEvidence.projectId, projectId),
        eq(stdReqAssessments.assessmentId, assessmentId),
        ne(stdEvidence.status, 'rejected'),
        isNotNull(stdEvidence.expiresOn),
        lte(stdEvidence.expiresOn, soon),
      ),
    )
    .orderBy(asc(stdEvidence.expiresOn), asc(stdEvidence.id));
  return rows.map((row) => ({
    id: row.id,
    req_id: row.reqId,
    ref_id: row.refId,
    title: row.title,
    expires_on: row.expiresOn!,
    state: row.expiresOn! < today ? ('expired' as const) : ('expiring' as const),
  }));
}

// ------------------------------------------------------------------------------------------------ the daily job

interface Trigger {
  key: string;
  title: string;
  evidenceId?: number;
  policyId?: number;
}

/**
 * The daily job (`standards-evidence`, DOMAIN.md 3.5): an element that is done and relies on approved evidence that
 * has expired, or on a linked policy whose evidence is expired (archived, never published, review past), goes back
 * to in review, with its version bumped and `standards.evidence_expired` in its history. Each expiry acts once
 * (its key is kept in the audit record): an element someone sets done again is left alone until another piece of
 * evidence expires, or the same one expires again after being renewed. Not-applicable elements are left alone.
 * Reads every project with standards on and active (hence `unsafe`); each element is its own transaction, and only
 * if nobody changed it since it was read.
 */
export async function unsafeReopenExpiredEvidence(db: Database, now: Date): Promise<number[]> {
  const today = isoDay(now);
  const soon = expiringUntil(now);
  const live = and(
    eq(stdReqAssessments.status, 'done'),
    ne(stdReqAssessments.result, 'not_applicable'),
    eq(projects.isActive, true),
    sql`'standards' = any(${projects.activeApps})`,
  );
  const items = await db
    .select({
      req: stdReqAssessments,
      id: stdEvidence.id,
      title: stdEvidence.title,
      expiresOn: stdEvidence.expiresOn,
    })
    .from(stdEvidence)
    .innerJoin(
      stdReqAssessments,
      and(
        eq(stdReqAssessments.id, stdEvidence.reqAssessmentId),
        eq(stdReqAssessments.projectId, stdEvidence.projectId),
      ),
    )
    .innerJoin(projects, eq(projects.id, stdReqAssessments.projectId))
    .where(and(live, eq(stdEvidence.status, 'approved'), lt(stdEvidence.expiresOn, today)))
    .orderBy(asc(stdEvidence.id));
  const policies = await db
    .select({
      req: stdReqAssessments,
      id: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      status: policyDocuments.status,
      currentVersionId: policyDocuments.currentVersionId,
      nextReviewOn: policyDocuments.nextReviewOn,
    })
    .from(stdReqAssessments)
    .innerJoin(projects, eq(projects.id, stdReqAssessments.projectId))
    .innerJoin(
      traceLinks,
      and(
        eq(traceLinks.projectId, stdReqAssessments.projectId),
        eq(traceLinks.nodeId, stdReqAssessments.nodeId),
        eq(traceLinks.targetType, 'policy'),
      ),
    )
    .innerJoin(
      policyDocuments,
      and(eq(policyDocuments.id, traceLinks.targetId), eq(policyDocuments.projectId, stdReqAssessments.projectId)),
    )
    .where(
      and(
        live,
        or(
          eq(policyDocuments.status, 'archived'),
          sql`${policyDocuments.currentVersionId} is null`,
          lt(policyDocuments.nextReviewOn, today),
        ),
      ),
    )
    .orderBy(asc(policyDocuments.id));

  const triggers = new Map<number, { req: ReqRow; list: Trigger[] }>();
  const add = (req: ReqRow, trigger: Trigger) => {
    const entry = triggers.get(req.id) ?? { req, list: [] };
    if (!entry.list.some((t) => t.key === trigger.key)) entry.list.push(trigger);
    triggers.set(req.id, entry);
  };
  for (const item of items) {
    add(item.req, { key: `item:${item.id}:${item.expiresOn}`, title: item.title, evidenceId: item.id });
  }
  for (const policy of policies) {
    const state = policyEvidenceState(policy, today, soon);
    if (state?.state !== 'expired') continue;
    const title = [policy.number, policy.title].filter(Boolean).join(' ');
    add(policy.req, { key: `policy:${policy.id}:${state.reason}`, title, policyId: policy.id });
  }
  if (triggers.size === 0) return [];

  // Expiries already acted on, by element.
  const handled = new Set<string>();
  const ids = [...triggers.keys()];
  for (let i = 0; i < ids.length; i += 1000) {
    const done = await db
      .select({ subjectId: auditEvents.subjectId, data: auditEvents.data })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'standards.evidence_expired'),
          eq(auditEvents.subjectType, 'std_req_assessment'),
          inArray(
            auditEvents.subjectId,
            ids.slice(i, i + 1000).map((id) => String(id)),
          ),
        ),
      );
    for (const row of done) {
      const keys = Array.isArray(row.data.keys) ? (row.data.keys as unknown[]) : [];
      for (const key of keys) handled.add(`${row.subjectId}|${String(key)}`);
    }
  }

  const reopened: number[] = [];
  for (const { req, list } of triggers.values()) {
    const fresh = list.filter((t) => !handled.has(`${req.id}|${t.key}`));
    if (fresh.length === 0) continue;
    const done = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(stdReqAssessments)
        .set({ status: 'in_review', version: req.version + 1, updatedAt: now, updatedBy: null })
        .where(
          and(
            eq(stdReqAssessments.projectId, req.projectId),
            eq(stdReqAssessments.id, req.id),
            eq(stdReqAssessments.version, req.version),
            eq(stdReqAssessments.status, 'done'),
          ),
        )
        .returning({ id: stdReqAssessments.id });
      if (!updated) return false;
      await standardsAudit(
        tx,
        { userId: null, projectId: req.projectId, ip: null, requestId: null },
        'evidence_expired',
        { type: 'std_req_assessment', id: req.id },
        {
          keys: fresh.map((t) => t.key),
          evidence_ids: fresh.flatMap((t) => (t.evidenceId === undefined ? [] : [t.evidenceId])),
          policy_ids: fresh.flatMap((t) => (t.policyId === undefined ? [] : [t.policyId])),
          // What expired, so the history can leave out a policy its reader may not see (elements.service.ts).
          expired: fresh.map((t) => ({ title: t.title, policy_id: t.policyId ?? null })),
          status: { from: 'done', to: 'in_review' },
          changes: changes({ status: 'done' }, { status: 'in_review' }),
          summary: [
            `Evidence expired: ${fresh.map((t) => t.title).join(', ')}; back to ${STD_STATUS_LABELS.in_review}`,
          ],
        },
        now,
      );
      return true;
    });
    if (done) reopened.push(req.id);
  }
  return reopened;
}
