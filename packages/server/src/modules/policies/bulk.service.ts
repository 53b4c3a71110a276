import {
  type BulkAction,
  type BulkCandidate,
  type BulkResult,
  type VersionState,
  workflowRefusal,
} from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { Mailer } from '../../lib/mailer.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { type Notice, queueNotices } from '../notifications/notices.js';
import { documentOf } from './documents.service.js';
import { joinedDepartment } from './policy-common.js';
import { resolveTaskNotices } from './task-notices.js';
import { myTasks } from './tasks.service.js';
import {
  attest,
  type Evidence,
  sendToReview,
  signVersion,
  startNewVersion,
  workflowProblems,
} from './workflow.service.js';
import { loadWorkflowSettings } from './workflow-settings.js';

/**
 * Bulk actions (decision record 007): each item in its own transaction, so one failure undoes nothing else, and
 * each idempotent, so a retried request does nothing twice (the item answers 'already_done').
 */

interface CandidateRow extends Record<string, unknown> {
  id: number;
  number: string | null;
  title: string;
  department_id: number | null;
  department_name: string | null;
  department_code: string | null;
  version_id: number | null;
  version: number | null;
  state: string | null;
  author_id: number | null;
  content: string | null;
}

/** GET bulk/{action}: the documents the actor may do the action on now. */
export async function bulkCandidates(
  db: DbOrTx,
  actor: PolicyActor,
  action: BulkAction,
  now: Date,
): Promise<BulkCandidate[]> {
  if (action === 'sign' || action === 'read') {
    const tasks = await myTasks(db, actor, now);
    return (action === 'sign' ? tasks.to_sign : tasks.to_read).map((task) => ({
      id: task.id,
      number: task.number,
      title: task.title,
      department: task.department,
      version_id: task.version_id,
      version: task.version,
      state: action === 'sign' ? 'pending_signature' : 'published',
      note: null,
    }));
  }
  // send-to-sign: drafts in progress; new-version: published policies without one.
  const { rows } = await db.execute<CandidateRow>(sql`
    select d.id, d.number, d.title, d.department_id, dep.name as department_name, dep.code as department_code,
           v.id as version_id, v.version, v.state, v.author_id, v.content
    from policy_documents d
    left join policy_departments dep on dep.id = d.department_id and dep.project_id = d.project_id
    left join policy_versions v on v.id = ${action === 'send-to-sign' ? sql.raw('d.draft_version_id') : sql.raw('d.current_version_id')}
    where d.project_id = ${actor.projectId} and d.status <> 'archived'
      and ${action === 'send-to-sign' ? sql`v.state = 'draft'` : sql`d.status = 'published' and d.draft_version_id is null`}
    order by d.number nulls last, d.title, d.id`);
  const settings = action === 'send-to-sign' ? await loadWorkflowSettings(db, actor.projectId) : null;
  const result: BulkCandidate[] = [];
  for (const row of rows) {
    // A draft whose department lacks reviewers or signers cannot be sent: say so before anyone tries.
    const [problem] = settings
      ? await workflowProblems(
          db,
          actor.projectId,
          { status: 'draft', departmentId: row.department_id },
          { state: 'draft', authorId: row.author_id, content: row.content ?? undefined },
          settings,
        )
      : [];
    result.push({
      id: row.id,
      number: row.number,
      title: row.title,
      department: joinedDepartment(row),
      version_id: row.version_id,
      version: row.version,
      state: row.state as VersionState | null,
      note: problem ? workflowRefusal(problem) : null,
    });
  }
  return result;
}

const DONE: Record<BulkAction, { done: string; already: string }> = {
  sign: { done: 'Signed.', already: 'You had already signed it.' },
  'send-to-sign': { done: 'Sent to its reviewers.', already: 'It was already sent.' },
  read: { done: 'Read and attested.', already: 'You had already attested it.' },
  'new-version': { done: 'New version started.', already: 'A new version was already in progress.' },
};

export interface BulkContext {
  evidence: Evidence;
  /** bulk sign: how the batch was authorised. */
  method?: 'password' | 'totp';
  /** Each item's notices are queued in its transaction. */
  mailer: Mailer;
  log: (error: unknown) => void;
}

/** Runs one action on each document in turn, each in a transaction with its notices and the task notices it settles. */
export async function runBulk(
  db: DbOrTx,
  actor: PolicyActor,
  action: BulkAction,
  documentIds: number[],
  context: BulkContext,
): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  const { now } = context.evidence;
  for (const documentId of documentIds) {
    try {
      const outcome = await db.transaction(async (tx) => {
        const notices: Notice[] = [];
        const done = await runOne(tx, actor, action, documentId, context, notices);
        await queueNotices(tx, context.mailer, actor.projectId, notices, now);
        await resolveTaskNotices(tx, actor.projectId, documentId, now);
        return done;
      });
      results.push({
        document_id: documentId,
        outcome,
        message: DONE[action][outcome === 'done' ? 'done' : 'already'],
      });
    } catch (error) {
      if (!(error instanceof AppError)) context.log(error);
      results.push({
        document_id: documentId,
        outcome: 'failed',
        message: error instanceof AppError ? error.message : 'Something went wrong with this policy. Try it again.',
      });
    }
  }
  return results;
}

async function runOne(
  db: DbOrTx,
  actor: PolicyActor,
  action: BulkAction,
  documentId: number,
  context: BulkContext,
  notices: Notice[],
): Promise<'done' | 'already_done'> {
  const doc = await documentOf(db, actor, documentId);
  switch (action) {
    case 'sign': {
      if (doc.draftVersionId === null) throw new AppError('CONFLICT', 'Nothing of this policy waits for signatures.');
      const signed = await signVersion(db, actor, documentId, {
        versionId: doc.draftVersionId,
        method: context.method ?? 'password',
        evidence: context.evidence,
      });
      notices.push(...signed.notices);
      return signed.outcome;
    }
    case 'read':
      if (doc.currentVersionId === null) throw new AppError('CONFLICT', 'This policy is not published yet.');
      return attest(db, actor, documentId, doc.currentVersionId, context.evidence);
    case 'new-version':
      return startNewVersion(db, actor, documentId, context.evidence.now);
    case 'send-to-sign': {
      if (doc.draftVersionId === null) {
        throw new AppError('CONFLICT', 'This policy has no version in progress. Start a new version first.');
      }
      const { rows } = await db.execute<{ state: string }>(
        sql`select state from policy_versions where project_id = ${actor.projectId} and id = ${doc.draftVersionId}`,
      );
      if (rows[0]?.state === 'in_review' || rows[0]?.state === 'pending_signature') return 'already_done';
      notices.push(...(await sendToReview(db, actor, documentId, '', context.evidence.now)));
      return 'done';
    }
  }
}
