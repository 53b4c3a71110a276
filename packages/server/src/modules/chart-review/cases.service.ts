import {
  ALL_CASES_STRATUM,
  type CrExcludeResult,
  type CrReveal,
  nextReplacement,
  type RankedCase,
} from '@portal/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { loadProjectRow } from '../../db/project-row.js';
import { crAccessLog, crAnswers, crAssignments, crCases } from '../../db/schema/index.js';
import { decrypt } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { ChartReviewActor } from '../../policies/chart-review.js';
import { caseFacts, caseRules, DRAW_BEFORE_EXCLUDING } from '../../policies/chart-review-records.js';
import { authorize } from '../../policies/rules.js';
import { chartReviewAudit } from './route-kit.js';
import { getSample, loadSample, SAMPLE_NOT_FOUND } from './sampling.service.js';
import { loadSettings } from './settings.service.js';

/**
 * One case of a sample (docs/chart-review.md "Sampling"): excluding it with a reason (the next ranked case of its
 * stratum takes its place, and after the lock its reviews move there), and the audited reveal of its encounter
 * reference on the review form.
 */

export const CASE_NOT_FOUND = 'Case not found.';

type CaseRow = typeof crCases.$inferSelect;

async function loadCase(db: DbOrTx, projectId: number, caseId: number, lock = false): Promise<CaseRow> {
  return loadProjectRow(db, crCases, projectId, caseId, CASE_NOT_FOUND, lock);
}

const noneLeft = (stratum: string) =>
  stratum === ALL_CASES_STRATUM
    ? 'No eligible case is left in this sample to replace it.'
    : `No eligible case is left in ${stratum} to replace it.`;

/**
 * POST /cases/{id}/exclude: the case is excluded with the reason and the best-ranked case of its stratum not yet
 * selected or excluded is selected in its place. Before the lock a stratum with nothing left just loses the case;
 * after it the case's reviews (none submitted) move to the replacement with the same reviewers and due dates, and
 * a stratum with nothing left answers 409.
 */
export async function excludeCase(
  db: Database,
  actor: ChartReviewActor,
  caseId: number,
  reason: string,
  now: Date,
): Promise<CrExcludeResult> {
  const result = await db.transaction(async (tx) => {
    const found = await loadCase(tx, actor.projectId, caseId);
    // The sample first, then its case: every exclusion of a sample waits for the one before it.
    const sample = await loadSample(tx, actor.projectId, found.sampleId, true).catch(() => {
      throw notFound(SAMPLE_NOT_FOUND);
    });
    const target = await loadCase(tx, actor.projectId, caseId, true);
    if (sample.status === 'uploaded') throw new AppError('CONFLICT', DRAW_BEFORE_EXCLUDING);
    if (target.status !== 'selected') throw new AppError('CONFLICT', 'Only a selected case can be excluded.');
    const locked = sample.status === 'locked';
    const assignments = await tx
      .select({ id: crAssignments.id, status: crAssignments.status })
      .from(crAssignments)
      .where(and(eq(crAssignments.projectId, actor.projectId), eq(crAssignments.caseId, caseId)));
    if (assignments.some((a) => a.status === 'submitted')) {
      throw new AppError('CONFLICT', 'A review of this case has been submitted: the case can no longer be excluded.');
    }
    const stratum = target.stratum ?? ALL_CASES_STRATUM;
    const peers = await tx
      .select({ id: crCases.id, rank: crCases.sampleRank, status: crCases.status, code: crCases.caseCode })
      .from(crCases)
      .where(
        and(
          eq(crCases.projectId, actor.projectId),
          eq(crCases.sampleId, sample.id),
          target.stratum === null ? sql`${crCases.stratum} is null` : eq(crCases.stratum, target.stratum),
        ),
      );
    const ranked: RankedCase[] = peers.map((peer) => ({
      ref: String(peer.id),
      unit: null,
      rank: peer.rank ?? Number.MAX_SAFE_INTEGER,
      stratum,
      selected: peer.status === 'selected',
    }));
    const excluded = new Set(peers.filter((peer) => peer.status === 'excluded').map((peer) => String(peer.id)));
    excluded.add(String(caseId));
    const next = nextReplacement(ranked, stratum, excluded);
    if (!next && locked) throw new AppError('CONFLICT', noneLeft(stratum));
    const replacement = next ? peers.find((peer) => String(peer.id) === next.ref)! : null;

    await tx
      .update(crCases)
      .set({
        status: 'excluded',
        exclusionReason: reason,
        excludedAt: now,
        excludedBy: actor.userId,
        replacedByCaseId: replacement?.id ?? null,
      })
      .where(and(eq(crCases.projectId, actor.projectId), eq(crCases.id, caseId)));
    if (replacement) {
      await tx
        .update(crCases)
        .set({ status: 'selected' })
        .where(and(eq(crCases.projectId, actor.projectId), eq(crCases.id, replacement.id)));
    }
    if (locked && replacement && assignments.length) {
      const ids = assignments.map((a) => a.id);
      // Answers about the excluded chart say nothing about its replacement: the reviews start again.
      await tx
        .delete(crAnswers)
        .where(and(eq(crAnswers.projectId, actor.projectId), inArray(crAnswers.assignmentId, ids)));
      await tx
        .update(crAssignments)
        .set({
          caseId: replacement.id,
          status: 'assigned',
          startedAt: null,
          returnReason: null,
          returnedAt: null,
          returnedBy: null,
          version: sql`${crAssignments.version} + 1`,
          updatedAt: now,
        })
        .where(and(eq(crAssignments.projectId, actor.projectId), inArray(crAssignments.id, ids)));
    }
    await chartReviewAudit(
      tx,
      actor,
      'case_excluded',
      { type: 'cr_case', id: caseId },
      {
        sample_id: sample.id,
        case_code: target.caseCode,
        reason,
        replacement_case_code: replacement?.code ?? null,
        assignments_moved: locked && replacement ? assignments.length : 0,
      },
      now,
    );
    return { sampleId: sample.id, replacement: replacement?.code ?? null };
  });
  return { sample: await getSample(db, actor, result.sampleId), replacement_case_code: result.replacement };
}

/**
 * POST /cases/{id}/reveal (section review): the encounter reference of a case, when the project keeps references
 * and the actor's chart review role is one of the settings' reveal roles (superadmins may; `caseRules`). Logged with
 * the reason in cr_access_log and audited.
 */
export async function revealRef(
  db: Database,
  actor: ChartReviewActor,
  appKey: Buffer,
  caseId: number,
  reason: string,
  now: Date,
): Promise<CrReveal> {
  return db.transaction(async (tx) => {
    const target = await loadCase(tx, actor.projectId, caseId);
    const settings = await loadSettings(tx, actor.projectId);
    authorize(caseRules, 'reveal', actor, caseFacts(target, settings));
    if (target.encounterRefEnc === null) throw notFound('The encounter reference of this case is no longer stored.');
    await tx.insert(crAccessLog).values({
      projectId: actor.projectId,
      userId: actor.userId,
      action: 'reveal',
      caseId,
      sampleId: target.sampleId,
      reason,
      ip: actor.ip,
      createdAt: now,
    });
    await chartReviewAudit(
      tx,
      actor,
      'encounter_ref_revealed',
      { type: 'cr_case', id: caseId },
      { case_code: target.caseCode, reason },
      now,
    );
    return { encounter_ref: decrypt(target.encounterRefEnc, appKey) };
  });
}
