import {
  addCounts,
  complianceScore,
  emptyCounts,
  SAFER_LIKELIHOODS,
  SAFER_SCOPES,
  STD_RESULT_LABELS,
  STD_STATUS_LABELS,
  type StdReadiness,
  type StdResult,
  treeCounts,
} from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { policyDocuments, stdReqAssessments, traceLinks, users } from '../../db/schema/index.js';
import { csvLine } from '../../lib/csv-export.js';
import type { StandardsActor } from '../../policies/standards.js';
import { visibleDocuments } from '../policies/visibility.js';
import { expiringEvidenceItems } from './evidence.service.js';
import { findingSummaries } from './findings.service.js';
import { loadGapReport } from './gap-report.js';
import { frameworkNodes, inForceOn, isOverdue, loadAssessment } from './records.js';
import { fileSlug, isoDay, standardsAudit } from './route-kit.js';

/**
 * Readiness and the gap report (docs/standards.md "Readiness"): how much of the assessment was assessed in the
 * last 12 months, compliance by chapter, open findings on the SAFER grid, corrections due, policy evidence expired
 * or expiring (review due within 60 days) that supports elements, evidence items expired or expiring, and every
 * element still short of compliant.
 */

const DAY = 86_400_000;

async function elementRows(db: DbOrTx, projectId: number, assessmentId: number) {
  return db
    .select({
      id: stdReqAssessments.id,
      nodeId: stdReqAssessments.nodeId,
      result: stdReqAssessments.result,
      status: stdReqAssessments.status,
      ownerName: personName,
      dueDate: stdReqAssessments.dueDate,
      observation: stdReqAssessments.observation,
      lastReviewedAt: stdReqAssessments.lastReviewedAt,
    })
    .from(stdReqAssessments)
    .leftJoin(users, eq(users.id, stdReqAssessments.ownerId))
    .where(and(eq(stdReqAssessments.projectId, projectId), eq(stdReqAssessments.assessmentId, assessmentId)));
}

export async function readiness(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  now: Date,
): Promise<StdReadiness> {
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  const nodes = await frameworkNodes(db, assessment.frameworkId);
  // Paragraphs not yet in force (a later effective date) are not counted until that day.
  const inForce = new Set(nodes.filter((n) => inForceOn(n, isoDay(now))).map((n) => n.id));
  const elements = (await elementRows(db, actor.projectId, assessment.id)).filter((e) => inForce.has(e.nodeId));
  const reqOf = new Map(elements.map((e) => [e.nodeId, e]));
  const counts = treeCounts(
    nodes.map((n) => ({ id: n.id, parentId: n.parentId, result: (reqOf.get(n.id)?.result as StdResult) ?? null })),
  );
  const total = emptyCounts();
  for (const e of elements) addCounts(total, { ...emptyCounts(), [e.result]: 1 });
  const yearAgo = new Date(now.getTime() - 365 * DAY);
  const applicable = elements.filter((e) => e.result !== 'not_applicable');
  const today = isoDay(now);
  const findings = await findingSummaries(db, actor.projectId, assessment.id, now);
  const open = findings.filter((f) => f.status !== 'closed');

  // Linked policies of the assessed nodes: expired (archived, never published, review past) or expiring (60 days).
  const links = await db
    .select({
      nodeId: traceLinks.nodeId,
      policyId: policyDocuments.id,
      number: policyDocuments.number,
      title: policyDocuments.title,
      status: policyDocuments.status,
      currentVersionId: policyDocuments.currentVersionId,
      nextReviewOn: policyDocuments.nextReviewOn,
    })
    .from(traceLinks)
    .innerJoin(
      policyDocuments,
      and(
        eq(policyDocuments.id, traceLinks.targetId),
        eq(policyDocuments.projectId, actor.projectId),
        await visibleDocuments(db, actor),
      ),
    )
    .where(
      and(
        eq(traceLinks.projectId, actor.projectId),
        eq(traceLinks.targetType, 'policy'),
        inArray(
          traceLinks.nodeId,
          nodes.map((n) => n.id),
        ),
      ),
    );
  const soon = isoDay(new Date(now.getTime() + 60 * DAY));
  const refOf = new Map(nodes.map((n) => [n.id, n.refId]));
  const byPolicy = new Map<number, StdReadiness['policy_evidence'][number]>();
  for (const link of links.length === 0 ? [] : links) {
    const approved = link.currentVersionId !== null && link.status !== 'archived';
    const expired = !approved || (link.nextReviewOn !== null && link.nextReviewOn < today);
    const expiring = !expired && link.nextReviewOn !== null && link.nextReviewOn <= soon;
    if (!expired && !expiring) continue;
    const entry = byPolicy.get(link.policyId) ?? {
      policy_id: link.policyId,
      number: link.number,
      title: link.title,
      next_review_on: link.nextReviewOn,
      state: expired ? ('expired' as const) : ('expiring' as const),
      elements: [],
    };
    entry.elements.push({ req_id: reqOf.get(link.nodeId)?.id ?? null, ref_id: refOf.get(link.nodeId) ?? '' });
    byPolicy.set(link.policyId, entry);
  }

  return {
    assessment_id: assessment.id,
    applicable: applicable.length,
    assessed_12m: applicable.filter(
      (e) => e.result !== 'not_assessed' && e.lastReviewedAt !== null && e.lastReviewedAt >= yearAgo,
    ).length,
    counts: total,
    score: complianceScore(total),
    chapters: nodes
      .filter((n) => n.depth === 0)
      .map((n) => {
        const own = counts.get(n.id)!;
        return { node_id: n.id, ref_id: n.refId, title: n.title, counts: own, score: complianceScore(own) };
      }),
    safer: SAFER_LIKELIHOODS.flatMap((likelihood) =>
      SAFER_SCOPES.map((scope) => ({
        likelihood,
        scope,
        count: open.filter((f) => f.likelihood === likelihood && f.scope === scope).length,
      })),
    ),
    immediate_threats: open.filter((f) => f.immediate_threat).length,
    due_corrections: open,
    policy_evidence: [...byPolicy.values()].sort(
      (a, b) => Number(b.state === 'expired') - Number(a.state === 'expired') || a.title.localeCompare(b.title),
    ),
    // Soonest expiry first, so expired items come first.
    evidence_items: await expiringEvidenceItems(db, actor.projectId, assessment.id, now),
    overdue_elements: elements.filter((e) => isOverdue(e.dueDate, e.status, today)).length,
  };
}

/**
 * GET /assessments/{id}/gap-report.csv: every applicable element that is not compliant (non-compliant, partial,
 * not assessed), in document order, with owner, due date, observation, the facility's wording and its open
 * findings: the rows of the PDF (loadGapReport), one query path for both. Cells are formula-escaped by csv-export.
 * Audited (who took the report, when).
 */
export async function gapReportCsv(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  now: Date,
): Promise<{ filename: string; body: string }> {
  const report = await loadGapReport(db, actor, assessmentId, now);
  const lines = [
    csvLine([
      'Chapter',
      'Ref',
      'Title',
      'Result',
      'Status',
      'Owner',
      'Due',
      'Overdue',
      'Observation',
      'Facility wording',
      'Open findings',
    ]),
    ...report.rows.map((row) =>
      csvLine([
        row.chapter,
        row.refId,
        row.title,
        STD_RESULT_LABELS[row.result],
        STD_STATUS_LABELS[row.status],
        row.owner,
        row.dueDate,
        row.overdue ? 'yes' : 'no',
        row.observation,
        row.wording,
        row.findings,
      ]),
    ),
  ];
  await standardsAudit(
    db,
    actor,
    'gap_report_exported',
    { type: 'std_assessment', id: assessmentId },
    {
      rows: report.rows.length,
    },
    now,
  );
  return {
    filename: `gap-report-${fileSlug(report.assessment.name.toLowerCase())}-${isoDay(now)}.csv`,
    body: lines.join(''),
  };
}
