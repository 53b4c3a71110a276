import {
  actionAllowedFrom,
  type DepartmentRole,
  type DocumentStatus,
  type DocumentWorkflow,
  documentName,
  type PolicySection,
  type ReviewDecisionBody,
  SIGNATURE_MEANING,
  type Signature,
  unresolvedIn,
  type VersionState,
  type WorkflowAction,
  type WorkflowProblem,
  type WorkflowRequest,
  type WorkflowSettings,
  workflowRefusal,
} from '@portal/shared';
import { and, asc, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName, personRef } from '../../db/person-name.js';
import {
  policyAttestations,
  policyDepartmentRoles,
  policyDepartments,
  policyDocuments,
  policySignatures,
  policyVersions,
  policyWorkflowEvents,
  policyWorkflowRequests,
  users,
} from '../../db/schema/index.js';
import { sha256 } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { can, EDIT_DOCUMENTS, type PolicyActor } from '../../policies/policy-management.js';
import { signsOwnVersion, type VersionFacts, versionRules } from '../../policies/policy-records.js';
import { authorize, serialize } from '../../policies/rules.js';
import type { Notice } from '../notifications/notices.js';
import { refreshReferences } from './cross-references.service.js';
import {
  documentLink,
  documentOf,
  lockDocument,
  openDraft,
  refreshSearchText,
  seesWorkingVersion,
} from './documents.service.js';
import { addMonths, audit } from './policy-common.js';
import { resolveTaskNotices } from './task-notices.js';
import { loadWorkflowSettings } from './workflow-settings.js';

/**
 * The review, signature and attestation workflow of one document (decision record 007). Every step locks the
 * document row, checks the step against WORKFLOW_ACTION_FROM, writes the step, its workflow event and its audit event
 * in one transaction, and returns the notices the caller queues in that transaction (notifications/notices.ts).
 */

type Doc = typeof policyDocuments.$inferSelect;
type Version = typeof policyVersions.$inferSelect;
type Kind = 'review' | 'signature';

/** Where a signature or attestation came from. */
export interface Evidence {
  ip: string;
  userAgent: string | null;
  now: Date;
}

/** The SHA-256 (hex) of a version's exact content: what a signature certifies. */
export const contentHash = (content: string) => sha256(content);

const today = (now: Date) => now.toISOString().slice(0, 10);

// ---------------------------------------------------------------- reading

async function loadVersionRow(tx: DbOrTx, projectId: number, versionId: number): Promise<Version> {
  const [version] = await tx
    .select()
    .from(policyVersions)
    .where(and(eq(policyVersions.projectId, projectId), eq(policyVersions.id, versionId)));
  if (!version) throw new AppError('NOT_FOUND', 'Version not found.');
  return version;
}

/** The document's working version, or a 409 saying there is none. */
async function workingVersion(tx: DbOrTx, actor: PolicyActor, doc: Doc): Promise<Version> {
  if (doc.status === 'archived') throw new AppError('CONFLICT', 'Restore this policy from the archive first.');
  if (doc.draftVersionId === null) {
    throw new AppError('CONFLICT', 'This policy has no version in progress. Start a new version first.');
  }
  return loadVersionRow(tx, actor.projectId, doc.draftVersionId);
}

/** The users holding a role in a department (the pruning of department roles keeps them eligible). */
export async function departmentPeople(
  db: DbOrTx,
  projectId: number,
  departmentId: number | null,
  role: DepartmentRole,
): Promise<number[]> {
  if (departmentId === null) return [];
  const rows = await db
    .select({ userId: policyDepartmentRoles.userId })
    .from(policyDepartmentRoles)
    .where(
      and(
        eq(policyDepartmentRoles.projectId, projectId),
        eq(policyDepartmentRoles.departmentId, departmentId),
        eq(policyDepartmentRoles.role, role),
      ),
    );
  return rows.map((row) => row.userId);
}

/** Who is asked in a round: the reviewers, or the signers (without the author unless self-signing is allowed). */
async function peopleToAsk(
  db: DbOrTx,
  projectId: number,
  doc: Pick<Doc, 'departmentId'>,
  version: Pick<Version, 'authorId'>,
  kind: Kind,
  settings: WorkflowSettings,
): Promise<number[]> {
  if (kind === 'review') return departmentPeople(db, projectId, doc.departmentId, 'reviewer');
  const signers = await departmentPeople(db, projectId, doc.departmentId, 'signer');
  return signers.filter((id) => !signsOwnVersion(id, version, settings.allow_self_signing));
}

async function requestsOf(tx: DbOrTx, projectId: number, version: Version, kind: Kind) {
  return tx
    .select()
    .from(policyWorkflowRequests)
    .where(
      and(
        eq(policyWorkflowRequests.projectId, projectId),
        eq(policyWorkflowRequests.versionId, version.id),
        eq(policyWorkflowRequests.round, version.round),
        eq(policyWorkflowRequests.kind, kind),
      ),
    );
}

/**
 * Why the working version cannot go on, in plain words, each with whether `actor` may fix it (assign the department's
 * reviewers or signers, or edit the policy). The send for review refuses while there is one; the web disables its
 * button and shows these reasons beside it.
 */
export async function workflowProblems(
  db: DbOrTx,
  projectId: number,
  doc: Pick<Doc, 'status' | 'departmentId'>,
  version: (Pick<Version, 'state' | 'authorId'> & { content?: string }) | null,
  settings: WorkflowSettings,
  actor?: PolicyActor,
): Promise<WorkflowProblem[]> {
  if (doc.status === 'archived' || version === null) return [];
  const may = (section: PolicySection) => (actor ? can(actor, section) : false);
  const problems: WorkflowProblem[] = [];
  // A generated draft keeps "{{name}}" where a template field had no answer: it may be saved, never sent on.
  const unresolved = version.state === 'draft' && version.content ? unresolvedIn(version.content) : [];
  if (unresolved.length) {
    problems.push({
      kind: 'template_fields',
      message: `Fill in the template fields still marked in the text before sending it for review: ${unresolved.map((n) => `{{${n}}}`).join(', ')}.`,
      department: null,
      can_fix: may(EDIT_DOCUMENTS),
    });
  }
  if (doc.departmentId === null) {
    problems.push({
      kind: 'no_department',
      message: 'This policy has no department: its reviewers, signers and readers come from there.',
      department: null,
      can_fix: may(EDIT_DOCUMENTS),
    });
    return problems;
  }
  const [department] = await db
    .select({ id: policyDepartments.id, name: policyDepartments.name })
    .from(policyDepartments)
    .where(and(eq(policyDepartments.projectId, projectId), eq(policyDepartments.id, doc.departmentId)));
  const named = department ?? { id: doc.departmentId, name: 'The department' };
  if (version.state === 'draft' || version.state === 'in_review') {
    const reviewers = await departmentPeople(db, projectId, doc.departmentId, 'reviewer');
    if (reviewers.length === 0) {
      problems.push({
        kind: 'no_reviewers',
        message: `${named.name} has no reviewers.`,
        department: named,
        can_fix: may('department-reviewers'),
      });
    }
  }
  const signers = await peopleToAsk(db, projectId, doc, version, 'signature', settings);
  if (signers.length === 0) {
    problems.push({
      kind: 'no_signers',
      message: settings.allow_self_signing
        ? `${named.name} has no signers.`
        : `${named.name} has no signer other than the author of this version.`,
      department: named,
      can_fix: may('department-signers'),
    });
  }
  return problems;
}

// ---------------------------------------------------------------- writing helpers

async function recordEvent(
  tx: DbOrTx,
  actor: PolicyActor,
  doc: Doc,
  version: Version,
  action: WorkflowAction | 'published' | 'new_version' | 'reassigned',
  comment: string | null,
  now: Date,
) {
  await tx.insert(policyWorkflowEvents).values({
    projectId: actor.projectId,
    documentId: doc.id,
    versionId: version.id,
    actorId: actor.userId,
    action,
    comment: comment || null,
    createdAt: now,
  });
}

/** Moves the working version (and a never-published document with it) to `state`. */
async function moveVersion(tx: DbOrTx, actor: PolicyActor, doc: Doc, version: Version, state: VersionState, now: Date) {
  await tx
    .update(policyVersions)
    .set({ state, updatedAt: now, updatedBy: actor.userId })
    .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, version.id)));
  if (doc.currentVersionId === null) {
    await tx
      .update(policyDocuments)
      .set({ status: state as DocumentStatus, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, doc.id)));
  }
  version.state = state;
}

async function askPeople(
  tx: DbOrTx,
  actor: PolicyActor,
  doc: Doc,
  version: Version,
  kind: Kind,
  userIds: number[],
  now: Date,
) {
  if (!userIds.length) return;
  await tx
    .insert(policyWorkflowRequests)
    .values(
      userIds.map((userId) => ({
        projectId: actor.projectId,
        documentId: doc.id,
        versionId: version.id,
        round: version.round,
        kind,
        userId,
        createdAt: now,
      })),
    )
    .onConflictDoNothing();
}

/** The signatures of the version's current round that still count (not voided). */
const roundSignatures = (projectId: number, version: Version) =>
  and(
    eq(policySignatures.projectId, projectId),
    eq(policySignatures.versionId, version.id),
    eq(policySignatures.round, version.round),
    isNull(policySignatures.voidedAt),
  );

/** Ends the round: open requests are withdrawn and the round's signatures voided (kept, marked void). */
async function closeRound(tx: DbOrTx, actor: PolicyActor, version: Version, reason: string, now: Date) {
  await tx
    .update(policyWorkflowRequests)
    .set({ status: 'withdrawn', decidedAt: now })
    .where(
      and(
        eq(policyWorkflowRequests.projectId, actor.projectId),
        eq(policyWorkflowRequests.versionId, version.id),
        eq(policyWorkflowRequests.round, version.round),
        eq(policyWorkflowRequests.status, 'pending'),
      ),
    );
  await tx
    .update(policySignatures)
    .set({ voidedAt: now, voidReason: reason })
    .where(roundSignatures(actor.projectId, version));
}

/** The version's author and the document's owner: who hears that it came back or was published. */
const authors = (doc: Doc, version: Version) =>
  [version.authorId, doc.ownerId].filter((id): id is number => id !== null);

async function actorName(tx: DbOrTx, actor: PolicyActor): Promise<string> {
  return (await personRef(tx, actor.userId))?.name ?? 'Someone';
}

function labelOf(doc: Doc) {
  return `"${documentName(doc)}"`;
}

// ---------------------------------------------------------------- moving on

/** All reviewers approved: to the signers. A round without signers waits (problems say so) until one is assigned. */
async function toSignature(
  tx: DbOrTx,
  actor: PolicyActor,
  doc: Doc,
  version: Version,
  settings: WorkflowSettings,
  now: Date,
): Promise<Notice[]> {
  await moveVersion(tx, actor, doc, version, 'pending_signature', now);
  const signers = await peopleToAsk(tx, actor.projectId, doc, version, 'signature', settings);
  await askPeople(tx, actor, doc, version, 'signature', signers, now);
  return [
    {
      userIds: signers,
      message: `${labelOf(doc)} version ${version.version} was approved by its reviewers and waits for your signature.`,
      link: documentLink(actor.projectId, doc.id),
      subject: `Policy to sign: ${documentName(doc)}`,
      task: { kind: 'policy_signature', ref: version.id },
    },
  ];
}

/** Moves a round on when its answers allow: all reviews approved, or the signatures needed are in. */
async function settle(
  tx: DbOrTx,
  actor: PolicyActor,
  doc: Doc,
  version: Version,
  settings: WorkflowSettings,
  now: Date,
): Promise<Notice[]> {
  if (version.state === 'in_review') {
    const live = (await requestsOf(tx, actor.projectId, version, 'review')).filter((r) => r.status !== 'withdrawn');
    if (live.length > 0 && live.every((r) => r.status === 'approved')) {
      return toSignature(tx, actor, doc, version, settings, now);
    }
    return [];
  }
  if (version.state === 'pending_signature') {
    const live = (await requestsOf(tx, actor.projectId, version, 'signature')).filter((r) => r.status !== 'withdrawn');
    const signed = live.filter((r) => r.status === 'signed').length;
    const done = settings.signatures_required === 'one' ? signed > 0 : live.length > 0 && signed === live.length;
    if (done) return publish(tx, actor, doc, version, now);
  }
  return [];
}

/** The signatures needed are in: the version becomes current and the department's readers must read it. */
async function publish(tx: DbOrTx, actor: PolicyActor, doc: Doc, version: Version, now: Date): Promise<Notice[]> {
  // A signature certifies exact content: never publish content that differs from what was signed.
  const signatures = await tx
    .select({ hash: policySignatures.contentSha256 })
    .from(policySignatures)
    .where(roundSignatures(actor.projectId, version));
  const hash = contentHash(version.content);
  if (signatures.length === 0 || signatures.some((s) => s.hash !== hash)) {
    throw new AppError('CONFLICT', 'The content changed after it was signed; it needs new signatures.');
  }
  // Signers still asked when one signature is enough have nothing left to do.
  await tx
    .update(policyWorkflowRequests)
    .set({ status: 'withdrawn', decidedAt: now })
    .where(
      and(
        eq(policyWorkflowRequests.projectId, actor.projectId),
        eq(policyWorkflowRequests.versionId, version.id),
        eq(policyWorkflowRequests.status, 'pending'),
      ),
    );
  const effective = today(now);
  if (doc.currentVersionId !== null) {
    await tx
      .update(policyVersions)
      .set({ state: 'superseded', supersededAt: now })
      .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, doc.currentVersionId)));
  }
  await tx
    .update(policyVersions)
    .set({ state: 'published', effectiveOn: effective, updatedAt: now })
    .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, version.id)));
  await tx
    .update(policyDocuments)
    .set({
      status: 'published',
      currentVersionId: version.id,
      draftVersionId: null,
      effectiveOn: effective,
      nextReviewOn: addMonths(effective, doc.reviewIntervalMonths),
      reviewRemindedAt: null,
      updatedAt: now,
    })
    .where(and(eq(policyDocuments.projectId, actor.projectId), eq(policyDocuments.id, doc.id)));
  await refreshSearchText(tx, actor.projectId, doc.id);
  // Links to other policies are checked against the version in force (the dashboard's broken cross-references).
  await refreshReferences(tx, actor.projectId, doc.id);
  await recordEvent(tx, actor, doc, version, 'published', null, now);
  await audit(
    tx,
    actor,
    'document_published',
    { type: 'policy_document', id: doc.id },
    {
      version: version.version,
      version_id: version.id,
      content_sha256: hash,
      effective_on: effective,
    },
    now,
  );
  const readers = await departmentPeople(tx, actor.projectId, doc.departmentId, 'reader');
  const link = documentLink(actor.projectId, doc.id);
  return [
    {
      userIds: readers,
      message:
        doc.currentVersionId === null
          ? `New policy ${labelOf(doc)} is in force. Please read it and confirm that you have.`
          : `Version ${version.version} of ${labelOf(doc)} is in force. Please read it and confirm that you have.`,
      link,
      subject: `Policy to read: ${documentName(doc)}`,
      task: { kind: 'policy_reading', ref: version.id },
    },
    {
      userIds: authors(doc, version).filter((id) => !readers.includes(id)),
      message: `${labelOf(doc)} version ${version.version} is signed and published.`,
      link,
      subject: `Policy published: ${documentName(doc)}`,
    },
  ];
}

// ---------------------------------------------------------------- the steps

/** Runs one step on a locked document: the document, its working version and the project settings. */
async function step<T>(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  run: (tx: DbOrTx, doc: Doc, version: Version, settings: WorkflowSettings) => Promise<T>,
): Promise<T> {
  await documentOf(db, actor, documentId);
  return db.transaction(async (tx) => {
    const doc = await lockDocument(tx, actor, documentId);
    const version = await workingVersion(tx, actor, doc);
    return run(tx, doc, version, await loadWorkflowSettings(tx, actor.projectId));
  });
}

/** The record-rule facts of the working version (policies/policy-records.ts), with the actor's pending requests. */
function versionFacts(
  doc: Doc,
  version: Version,
  settings: WorkflowSettings,
  asked: VersionFacts['asked'] = { review: false, signature: false },
): VersionFacts {
  return {
    projectId: doc.projectId,
    archived: doc.status === 'archived',
    state: version.state as VersionState,
    authorId: version.authorId,
    asked,
    allowSelfSigning: settings.allow_self_signing,
  };
}

function refuseState(action: WorkflowAction, version: Version) {
  if (actionAllowedFrom(action, version.state as VersionState)) return;
  const where: Record<string, string> = {
    draft: 'is a draft',
    in_review: 'is in review',
    pending_signature: 'is waiting for signatures',
  };
  throw new AppError('CONFLICT', `Version ${version.version} ${where[version.state] ?? 'cannot take this step'} now.`);
}

/** An author sends the draft to the department's reviewers (a new round). */
export async function sendToReview(db: DbOrTx, actor: PolicyActor, documentId: number, comment: string, now: Date) {
  return step(db, actor, documentId, async (tx, doc, version, settings) => {
    refuseState('send_to_review', version);
    authorize(versionRules, 'send_to_review', actor, versionFacts(doc, version, settings));
    const [problem] = await workflowProblems(tx, actor.projectId, doc, version, settings);
    if (problem) throw new AppError('CONFLICT', workflowRefusal(problem));
    version.round += 1;
    await tx
      .update(policyVersions)
      .set({ round: version.round })
      .where(and(eq(policyVersions.projectId, actor.projectId), eq(policyVersions.id, version.id)));
    await moveVersion(tx, actor, doc, version, 'in_review', now);
    const reviewers = await peopleToAsk(tx, actor.projectId, doc, version, 'review', settings);
    await askPeople(tx, actor, doc, version, 'review', reviewers, now);
    await recordEvent(tx, actor, doc, version, 'send_to_review', comment, now);
    await audit(
      tx,
      actor,
      'sent_to_review',
      { type: 'policy_document', id: doc.id },
      {
        version: version.version,
        round: version.round,
        reviewers,
      },
      now,
    );
    const who = await actorName(tx, actor);
    return [
      {
        userIds: reviewers,
        message: `${who} asks you to review ${labelOf(doc)} version ${version.version}.${comment ? ` "${comment}"` : ''}`,
        link: documentLink(actor.projectId, doc.id),
        subject: `Policy to review: ${documentName(doc)}`,
        task: { kind: 'policy_review', ref: version.id },
      },
    ] satisfies Notice[];
  });
}

/** An author takes the version back to draft; the round's requests are withdrawn and its signatures voided. */
export async function withdraw(db: DbOrTx, actor: PolicyActor, documentId: number, comment: string, now: Date) {
  return step(db, actor, documentId, async (tx, doc, version, settings) => {
    refuseState('withdraw', version);
    authorize(versionRules, 'withdraw', actor, versionFacts(doc, version, settings));
    const waiting = (
      await requestsOf(tx, actor.projectId, version, version.state === 'in_review' ? 'review' : 'signature')
    )
      .filter((r) => r.status === 'pending')
      .map((r) => r.userId);
    const who = await actorName(tx, actor);
    await closeRound(tx, actor, version, `Withdrawn by ${who}: ${comment}`, now);
    await moveVersion(tx, actor, doc, version, 'draft', now);
    await recordEvent(tx, actor, doc, version, 'withdraw', comment, now);
    await audit(
      tx,
      actor,
      'withdrawn',
      { type: 'policy_document', id: doc.id },
      {
        version: version.version,
        round: version.round,
        comment,
      },
      now,
    );
    return [
      {
        userIds: waiting,
        message: `${who} withdrew ${labelOf(doc)} version ${version.version}: nothing waits for you on it now. "${comment}"`,
        link: documentLink(actor.projectId, doc.id),
        subject: `Policy withdrawn: ${documentName(doc)}`,
      },
    ] satisfies Notice[];
  });
}

/**
 * The actor's request of this round, pending or answered; undefined when they were not asked (or their request was
 * withdrawn), which the record rules refuse. An answered one is a conflict: nobody answers twice.
 */
async function myRequest(tx: DbOrTx, actor: PolicyActor, version: Version, kind: Kind) {
  const mine = (await requestsOf(tx, actor.projectId, version, kind)).find((r) => r.userId === actor.userId);
  if (!mine || mine.status === 'withdrawn') return undefined;
  if (mine.status !== 'pending') {
    throw new AppError(
      'CONFLICT',
      kind === 'review' ? 'You already answered this review.' : 'You already answered this signature request.',
    );
  }
  return mine;
}

/** A reviewer approves or requests changes. */
export async function review(db: DbOrTx, actor: PolicyActor, documentId: number, body: ReviewDecisionBody, now: Date) {
  return step(db, actor, documentId, async (tx, doc, version, settings) => {
    refuseState(body.decision, version);
    const request = await myRequest(tx, actor, version, 'review');
    const asked = { review: request !== undefined, signature: false };
    authorize(versionRules, body.decision, actor, versionFacts(doc, version, settings, asked));
    const who = await actorName(tx, actor);
    await tx
      .update(policyWorkflowRequests)
      .set({
        status: body.decision === 'approve' ? 'approved' : 'changes_requested',
        comment: body.comment || null,
        decidedAt: now,
      })
      .where(eq(policyWorkflowRequests.id, request!.id));
    await recordEvent(tx, actor, doc, version, body.decision, body.comment, now);
    await audit(
      tx,
      actor,
      body.decision === 'approve' ? 'review_approved' : 'changes_requested',
      { type: 'policy_document', id: doc.id },
      { version: version.version, round: version.round, comment: body.comment || null },
      now,
    );
    if (body.decision === 'request_changes') {
      await closeRound(tx, actor, version, `Changes requested by ${who}.`, now);
      await moveVersion(tx, actor, doc, version, 'draft', now);
      return [
        {
          userIds: authors(doc, version),
          message: `${who} asks for changes to ${labelOf(doc)} version ${version.version}: "${body.comment}"`,
          link: documentLink(actor.projectId, doc.id),
          subject: `Changes requested: ${documentName(doc)}`,
        },
      ] satisfies Notice[];
    }
    return settle(tx, actor, doc, version, settings, now);
  });
}

export interface SignInput {
  versionId: number;
  method: 'password' | 'totp';
  evidence: Evidence;
}

/**
 * Signs the working version for the actor, whose credentials the caller has checked. Signing twice is harmless: the
 * second time answers 'already_done'.
 */
export async function signVersion(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  input: SignInput,
): Promise<{ outcome: 'done' | 'already_done'; notices: Notice[] }> {
  const { now } = input.evidence;
  await documentOf(db, actor, documentId);
  return db.transaction(async (tx) => {
    const doc = await lockDocument(tx, actor, documentId);
    // Signed already (a retry, or the signature that published it): nothing to do twice.
    const [already] = await tx
      .select({ id: policySignatures.id })
      .from(policySignatures)
      .innerJoin(policyVersions, eq(policyVersions.id, policySignatures.versionId))
      .where(
        and(
          eq(policySignatures.projectId, actor.projectId),
          eq(policySignatures.versionId, input.versionId),
          eq(policySignatures.round, policyVersions.round),
          eq(policySignatures.signerId, actor.userId),
          isNull(policySignatures.voidedAt),
        ),
      );
    if (already) return { outcome: 'already_done' as const, notices: [] };
    const version = await workingVersion(tx, actor, doc);
    const settings = await loadWorkflowSettings(tx, actor.projectId);
    if (version.id !== input.versionId) {
      throw new AppError(
        'CONFLICT',
        `This policy changed after you opened it: read version ${version.version} before signing.`,
      );
    }
    refuseState('sign', version);
    const request = await myRequest(tx, actor, version, 'signature');
    const asked = { review: false, signature: request !== undefined };
    authorize(versionRules, 'sign', actor, versionFacts(doc, version, settings, asked));
    const signer = await personRef(tx, actor.userId);
    const hash = contentHash(version.content);
    const inserted = await tx
      .insert(policySignatures)
      .values({
        projectId: actor.projectId,
        documentId: doc.id,
        versionId: version.id,
        round: version.round,
        signerId: actor.userId,
        signerName: signer?.name ?? '',
        signedAt: now,
        ip: input.evidence.ip,
        userAgent: input.evidence.userAgent,
        contentSha256: hash,
        method: input.method,
        meaning: SIGNATURE_MEANING,
      })
      .onConflictDoNothing()
      .returning({ id: policySignatures.id });
    if (!inserted.length) return { outcome: 'already_done' as const, notices: [] };
    await tx
      .update(policyWorkflowRequests)
      .set({ status: 'signed', decidedAt: now })
      .where(eq(policyWorkflowRequests.id, request!.id));
    await recordEvent(tx, actor, doc, version, 'sign', null, now);
    await audit(
      tx,
      actor,
      'document_signed',
      { type: 'policy_document', id: doc.id },
      {
        version: version.version,
        version_id: version.id,
        round: version.round,
        content_sha256: hash,
        method: input.method,
        signature_id: inserted[0]!.id,
      },
      now,
    );
    return {
      outcome: 'done' as const,
      notices: await settle(tx, actor, doc, version, settings, now),
    };
  });
}

/** A signer refuses to sign: the version goes back to draft with their comment. */
export async function decline(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  body: { version_id: number; comment: string },
  now: Date,
) {
  return step(db, actor, documentId, async (tx, doc, version, settings) => {
    if (version.id !== body.version_id) {
      throw new AppError('CONFLICT', `This policy changed after you opened it: read version ${version.version} first.`);
    }
    refuseState('decline', version);
    const request = await myRequest(tx, actor, version, 'signature');
    const asked = { review: false, signature: request !== undefined };
    authorize(versionRules, 'decline', actor, versionFacts(doc, version, settings, asked));
    const who = await actorName(tx, actor);
    await tx
      .update(policyWorkflowRequests)
      .set({ status: 'declined', comment: body.comment, decidedAt: now })
      .where(eq(policyWorkflowRequests.id, request!.id));
    await closeRound(tx, actor, version, `Declined by ${who}: ${body.comment}`, now);
    await moveVersion(tx, actor, doc, version, 'draft', now);
    await recordEvent(tx, actor, doc, version, 'decline', body.comment, now);
    await audit(
      tx,
      actor,
      'signature_declined',
      { type: 'policy_document', id: doc.id },
      {
        version: version.version,
        round: version.round,
        comment: body.comment,
      },
      now,
    );
    return [
      {
        userIds: authors(doc, version),
        message: `${who} declined to sign ${labelOf(doc)} version ${version.version}: "${body.comment}"`,
        link: documentLink(actor.projectId, doc.id),
        subject: `Signature declined: ${documentName(doc)}`,
      },
    ] satisfies Notice[];
  });
}

/** A reader attests the current version. Attesting again is harmless ('already_done'). */
export async function attest(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  versionId: number,
  evidence: Evidence,
): Promise<'done' | 'already_done'> {
  const { now } = evidence;
  const doc = await documentOf(db, actor, documentId);
  if (doc.status === 'archived') throw new AppError('CONFLICT', 'This policy is archived: there is nothing to read.');
  if (doc.currentVersionId === null) throw new AppError('CONFLICT', 'This policy is not published yet.');
  if (doc.currentVersionId !== versionId) {
    const current = await loadVersionRow(db, actor.projectId, doc.currentVersionId);
    throw new AppError(
      'CONFLICT',
      `A newer version of this policy is in force: read version ${current.version} and confirm that one.`,
    );
  }
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(policyAttestations)
      .values({
        projectId: actor.projectId,
        documentId: doc.id,
        versionId,
        userId: actor.userId,
        attestedAt: now,
        ip: evidence.ip,
        userAgent: evidence.userAgent,
      })
      .onConflictDoNothing()
      .returning({ id: policyAttestations.id });
    if (!inserted.length) return 'already_done' as const;
    await audit(
      tx,
      actor,
      'document_attested',
      { type: 'policy_document', id: doc.id },
      { version_id: versionId },
      now,
    );
    return 'done' as const;
  });
}

/** Opens a new version (a draft copy of the current one); 'already_done' when one is open. */
export async function startNewVersion(
  db: DbOrTx,
  actor: PolicyActor,
  documentId: number,
  now: Date,
): Promise<'done' | 'already_done'> {
  const doc = await documentOf(db, actor, documentId);
  if (doc.status === 'archived') throw new AppError('CONFLICT', 'Restore this policy from the archive first.');
  if (doc.currentVersionId === null) {
    throw new AppError('CONFLICT', 'This policy was never published: its first version is still in progress.');
  }
  return db.transaction(async (tx) => {
    const fresh = await lockDocument(tx, actor, doc.id);
    if (fresh.draftVersionId !== null) return 'already_done' as const;
    const draft = await openDraft(tx, actor, fresh, now);
    await recordEvent(tx, actor, fresh, draft, 'new_version', null, now);
    return 'done' as const;
  });
}

// ---------------------------------------------------------------- department changes reach open rounds

/**
 * After a department's reviewers or signers changed (in the caller's transaction): open review and signature
 * requests of its documents follow (new people are asked, removed people's requests are withdrawn) and a round
 * whose remaining requests are all answered moves on. Returns the notices to queue in the caller's transaction.
 */
export async function afterDepartmentRolesChanged(
  tx: DbOrTx,
  actor: PolicyActor,
  departmentId: number,
  now: Date,
): Promise<Notice[]> {
  const open = await tx
    .select({ documentId: policyDocuments.id })
    .from(policyDocuments)
    .innerJoin(policyVersions, eq(policyVersions.id, policyDocuments.draftVersionId))
    .where(
      and(
        eq(policyDocuments.projectId, actor.projectId),
        eq(policyDocuments.departmentId, departmentId),
        ne(policyDocuments.status, 'archived'),
        inArray(policyVersions.state, ['in_review', 'pending_signature']),
      ),
    )
    .orderBy(asc(policyDocuments.id));
  if (!open.length) return [];
  const settings = await loadWorkflowSettings(tx, actor.projectId);
  const notices: Notice[] = [];
  for (const { documentId } of open) {
    const doc = await lockDocument(tx, actor, documentId);
    const version = await loadVersionRow(tx, actor.projectId, doc.draftVersionId!);
    const kind: Kind = version.state === 'in_review' ? 'review' : 'signature';
    const wanted = new Set(await peopleToAsk(tx, actor.projectId, doc, version, kind, settings));
    const requests = await requestsOf(tx, actor.projectId, version, kind);
    const gone = requests.filter((r) => r.status === 'pending' && !wanted.has(r.userId)).map((r) => r.id);
    const asked = new Set(requests.map((r) => r.userId));
    const added = [...wanted].filter((userId) => !asked.has(userId));
    if (gone.length) {
      await tx
        .update(policyWorkflowRequests)
        .set({ status: 'withdrawn', decidedAt: now })
        .where(and(eq(policyWorkflowRequests.projectId, actor.projectId), inArray(policyWorkflowRequests.id, gone)));
    }
    await askPeople(tx, actor, doc, version, kind, added, now);
    if (!gone.length && !added.length) continue;
    await recordEvent(tx, actor, doc, version, 'reassigned', null, now);
    await audit(
      tx,
      actor,
      'requests_reassigned',
      { type: 'policy_document', id: doc.id },
      {
        version: version.version,
        kind,
        added,
        withdrawn_request_ids: gone,
      },
      now,
    );
    notices.push({
      userIds: added,
      message:
        kind === 'review'
          ? `You were added as a reviewer: please review ${labelOf(doc)} version ${version.version}.`
          : `You were added as a signer: ${labelOf(doc)} version ${version.version} waits for your signature.`,
      link: documentLink(actor.projectId, doc.id),
      subject: `${kind === 'review' ? 'Policy to review' : 'Policy to sign'}: ${documentName(doc)}`,
      task: { kind: kind === 'review' ? 'policy_review' : 'policy_signature', ref: version.id },
    });
    notices.push(...(await settle(tx, actor, doc, version, settings, now)));
  }
  // Requests withdrawn from people who lost the role: their "waits for your ..." notices are done.
  for (const { documentId } of open) await resolveTaskNotices(tx, actor.projectId, documentId, now);
  return notices;
}

// ---------------------------------------------------------------- what the document page shows

async function loadRequests(db: DbOrTx, projectId: number, version: Version): Promise<WorkflowRequest[]> {
  const rows = await db
    .select({
      id: policyWorkflowRequests.id,
      kind: policyWorkflowRequests.kind,
      round: policyWorkflowRequests.round,
      userId: policyWorkflowRequests.userId,
      name: personName,
      status: policyWorkflowRequests.status,
      comment: policyWorkflowRequests.comment,
      decidedAt: policyWorkflowRequests.decidedAt,
    })
    .from(policyWorkflowRequests)
    .innerJoin(users, eq(users.id, policyWorkflowRequests.userId))
    .where(
      and(
        eq(policyWorkflowRequests.projectId, projectId),
        eq(policyWorkflowRequests.versionId, version.id),
        eq(policyWorkflowRequests.round, version.round),
      ),
    )
    .orderBy(asc(personName), asc(policyWorkflowRequests.id));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as WorkflowRequest['kind'],
    round: r.round,
    person: { id: r.userId, name: r.name },
    status: r.status as WorkflowRequest['status'],
    comment: r.comment,
    decided_at: r.decidedAt?.toISOString() ?? null,
  }));
}

async function loadSignatures(db: DbOrTx, projectId: number, version: Version): Promise<Signature[]> {
  const rows = await db
    .select()
    .from(policySignatures)
    .where(and(eq(policySignatures.projectId, projectId), eq(policySignatures.versionId, version.id)))
    .orderBy(desc(policySignatures.round), asc(policySignatures.signedAt), asc(policySignatures.id));
  const hash = contentHash(version.content);
  return rows.map((s) => ({
    id: s.id,
    version_id: s.versionId,
    version: version.version,
    signer: { id: s.signerId, name: s.signerName },
    signed_at: s.signedAt.toISOString(),
    ip: s.ip,
    user_agent: s.userAgent,
    content_sha256: s.contentSha256,
    method: s.method as Signature['method'],
    meaning: s.meaning,
    valid: s.voidedAt === null && s.contentSha256 === hash,
    voided_at: s.voidedAt?.toISOString() ?? null,
    void_reason: s.voidReason,
  }));
}

/** GET documents/{id}/workflow: where the document stands, who was asked, the evidence, and what the actor may do. */
export async function loadWorkflow(db: DbOrTx, actor: PolicyActor, documentId: number): Promise<DocumentWorkflow> {
  const doc = await documentOf(db, actor, documentId);
  const settings = await loadWorkflowSettings(db, actor.projectId);
  const working =
    doc.draftVersionId !== null && (await seesWorkingVersion(db, actor, doc))
      ? await loadVersionRow(db, actor.projectId, doc.draftVersionId)
      : null;
  const current =
    doc.currentVersionId === null ? null : await loadVersionRow(db, actor.projectId, doc.currentVersionId);
  const requests = working ? await loadRequests(db, actor.projectId, working) : [];
  const reviews = requests.filter((r) => r.kind === 'review');
  const signatureRequests = requests.filter((r) => r.kind === 'signature');
  const mine = (list: WorkflowRequest[]) => list.find((r) => r.person.id === actor.userId && r.status === 'pending');
  const archived = doc.status === 'archived';
  const _state = working?.state as VersionState | undefined;
  const editor = can(actor, EDIT_DOCUMENTS);

  const events = await db
    .select({
      id: policyWorkflowEvents.id,
      at: policyWorkflowEvents.createdAt,
      actorId: policyWorkflowEvents.actorId,
      actorName: personName,
      action: policyWorkflowEvents.action,
      version: policyVersions.version,
      comment: policyWorkflowEvents.comment,
    })
    .from(policyWorkflowEvents)
    .innerJoin(policyVersions, eq(policyVersions.id, policyWorkflowEvents.versionId))
    .leftJoin(users, eq(users.id, policyWorkflowEvents.actorId))
    .where(and(eq(policyWorkflowEvents.projectId, actor.projectId), eq(policyWorkflowEvents.documentId, doc.id)))
    .orderBy(desc(policyWorkflowEvents.createdAt), desc(policyWorkflowEvents.id))
    .limit(200);

  let attestation: DocumentWorkflow['attestation'] = null;
  if (current && !archived) {
    const [row] = await db
      .select({ at: policyAttestations.attestedAt })
      .from(policyAttestations)
      .where(
        and(
          eq(policyAttestations.projectId, actor.projectId),
          eq(policyAttestations.versionId, current.id),
          eq(policyAttestations.userId, actor.userId),
        ),
      );
    const readers = await departmentPeople(db, actor.projectId, doc.departmentId, 'reader');
    attestation = {
      version_id: current.id,
      required: readers.includes(actor.userId),
      attested_at: row?.at.toISOString() ?? null,
    };
  }

  return {
    document_id: doc.id,
    status: doc.status as DocumentStatus,
    working_version: working
      ? {
          id: working.id,
          version: working.version,
          state: working.state as VersionState,
          round: working.round,
          author: await personRef(db, working.authorId),
        }
      : null,
    current_version: current
      ? {
          id: current.id,
          version: current.version,
          effective_on: current.effectiveOn,
          content_sha256: contentHash(current.content),
        }
      : null,
    reviews,
    signature_requests: signatureRequests,
    signatures: working ? await loadSignatures(db, actor.projectId, working) : [],
    published_signatures: current ? await loadSignatures(db, actor.projectId, current) : [],
    events: events.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      actor: e.actorId === null ? null : { id: e.actorId, name: e.actorName },
      action: e.action as DocumentWorkflow['events'][number]['action'],
      version: e.version,
      comment: e.comment,
    })),
    settings,
    attestation,
    abilities: {
      ...serialize(versionRules, actor, {
        projectId: doc.projectId,
        archived,
        state: (working?.state as VersionState | undefined) ?? null,
        authorId: working?.authorId ?? null,
        asked: { review: mine(reviews) !== undefined, signature: mine(signatureRequests) !== undefined },
        allowSelfSigning: settings.allow_self_signing,
      }),
      attest: attestation !== null && attestation.attested_at === null,
      view_attestations: can(actor, 'attestation-reports'),
    },
    problems: editor ? await workflowProblems(db, actor.projectId, doc, working, settings, actor) : [],
  };
}
