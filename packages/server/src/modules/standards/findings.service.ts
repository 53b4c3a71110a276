import {
  correctionDue,
  type ImprovementDirection,
  needsLeadership,
  type SaferLikelihood,
  type SaferScope,
  type SpcChart,
  type SpcRuleSet,
  type StdFinding,
  type StdFindingInput,
  type StdFindingSource,
  type StdFindingStatus,
  type StdFindingSummary,
  type StdPlanInput,
} from '@portal/shared';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { loadProjectRow } from '../../db/project-row.js';
import {
  monMeasures,
  monPages,
  projects,
  stdFindings,
  stdNodes,
  stdReqAssessments,
  users,
} from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError } from '../../lib/errors.js';
import type { Viewer } from '../../policies/app-access.js';
import { authorize, serialize } from '../../policies/rules.js';
import type { StandardsActor } from '../../policies/standards.js';
import { elementFacts, type FindingFacts, findingRules } from '../../policies/standards-records.js';
import { seriesOfMeasure } from '../monitoring/series.service.js';
import { visibleMeasures } from '../monitoring/visibility.js';
import { assignableIds } from './people.service.js';
import { loadAssessment, loadReq, type ReqRow } from './records.js';
import { isoDay, standardsAudit } from './route-kit.js';

/**
 * Findings on elements and their plans of correction (docs/standards.md "Findings"): the SAFER cell, the due date
 * (60 days, 3 for an immediate threat), the plan with leadership involvement and a preventive analysis required in
 * high-risk cells, and how the correction is sustained: a monitoring measure at its target for some complete periods
 * in a row after the finding was cited. A finding closes when every action is done and that rule is met (by hand,
 * or by the daily job).
 */

export type FindingRow = typeof stdFindings.$inferSelect;
interface ActionRow {
  what: string;
  owner_id: number | null;
  due: string | null;
  done: boolean;
}

export const AUTO_CLOSE_NOTE = 'Closed automatically: every action is done and the measure met its target.';

/** Who may record a finding on an element (its panel's `finding`), plan it (who may change it), close it (admins, its lead). */
/** The facts the finding rules need (policies/standards-records.ts); a finding not yet recorded is the actor's. */
async function findingFacts(
  db: DbOrTx,
  actor: StandardsActor,
  req: ReqRow,
  row?: Pick<FindingRow, 'createdBy' | 'status'>,
): Promise<FindingFacts> {
  return {
    projectId: req.projectId,
    element: await elementFacts(db, actor, req),
    createdBy: row ? row.createdBy : actor.userId,
    closed: row?.status === 'closed',
  };
}

/** Saves `fields` of a finding as the actor's next version of it (its `version` moves on: the optimistic lock). */
async function saveFinding(
  tx: DbOrTx,
  actor: StandardsActor,
  row: FindingRow,
  now: Date,
  fields: Partial<typeof stdFindings.$inferInsert>,
) {
  await tx
    .update(stdFindings)
    .set({ ...fields, version: row.version + 1, updatedAt: now, updatedBy: actor.userId })
    .where(and(eq(stdFindings.projectId, actor.projectId), eq(stdFindings.id, row.id)));
}

export async function loadFinding(db: DbOrTx, projectId: number, id: number, lock = false): Promise<FindingRow> {
  return loadProjectRow(db, stdFindings, projectId, id, 'Finding not found.', lock);
}

function summaryOf(row: FindingRow, node: { refId: string; title: string }, today: string): StdFindingSummary {
  return {
    id: row.id,
    req_id: row.reqAssessmentId,
    tracer_id: row.tracerId,
    ref_id: node.refId,
    title: node.title,
    source: row.source as StdFindingSource,
    text: row.text,
    likelihood: row.likelihood as SaferLikelihood,
    scope: row.scope as SaferScope,
    immediate_threat: row.immediateThreat,
    cited_on: row.citedOn,
    due_date: row.dueDate,
    overdue: row.status !== 'closed' && row.dueDate < today,
    status: row.status as StdFindingStatus,
    high_risk: needsLeadership(row.likelihood as SaferLikelihood, row.scope as SaferScope, row.immediateThreat),
  };
}

/** Findings of an assessment with their element, overdue first then by due date (one query). */
export async function findingSummaries(
  db: DbOrTx,
  projectId: number,
  assessmentId: number,
  now: Date,
  status?: StdFindingStatus,
): Promise<StdFindingSummary[]> {
  const rows = await db
    .select({ finding: stdFindings, refId: stdNodes.refId, title: stdNodes.title })
    .from(stdFindings)
    .innerJoin(stdReqAssessments, eq(stdReqAssessments.id, stdFindings.reqAssessmentId))
    .innerJoin(stdNodes, eq(stdNodes.id, stdReqAssessments.nodeId))
    .where(
      and(
        eq(stdFindings.projectId, projectId),
        eq(stdFindings.assessmentId, assessmentId),
        status ? eq(stdFindings.status, status) : undefined,
      ),
    )
    .orderBy(asc(stdFindings.dueDate), asc(stdFindings.id));
  const today = isoDay(now);
  return rows
    .map((r) => summaryOf(r.finding, r, today))
    .sort((a, b) => Number(b.overdue) - Number(a.overdue) || a.due_date.localeCompare(b.due_date));
}

/** Findings on one element, for its panel. */
export async function findingsOfElement(db: DbOrTx, projectId: number, reqId: number, now: Date) {
  const rows = await db
    .select({ finding: stdFindings, refId: stdNodes.refId, title: stdNodes.title })
    .from(stdFindings)
    .innerJoin(stdReqAssessments, eq(stdReqAssessments.id, stdFindings.reqAssessmentId))
    .innerJoin(stdNodes, eq(stdNodes.id, stdReqAssessments.nodeId))
    .where(and(eq(stdFindings.projectId, projectId), eq(stdFindings.reqAssessmentId, reqId)))
    .orderBy(asc(stdFindings.createdAt), asc(stdFindings.id));
  const today = isoDay(now);
  return rows.map((r) => summaryOf(r.finding, r, today));
}

/** POST /req-assessments/{id}/findings */
export async function createFinding(
  db: Database,
  actor: StandardsActor,
  reqId: number,
  input: StdFindingInput,
  now: Date,
  tracer?: { id: number; assessmentId: number },
): Promise<StdFinding> {
  const id = await db.transaction(async (tx) => {
    const req = await loadReq(tx, actor.projectId, reqId);
    authorize(findingRules, 'create', actor, await findingFacts(tx, actor, req));
    if (tracer && tracer.assessmentId !== req.assessmentId) {
      const message = 'Choose an element of the assessment this tracer belongs to.';
      throw new AppError('VALIDATION_FAILED', message, { req_id: [message] });
    }
    const due = correctionDue(input.cited_on, input.immediate_threat);
    const [finding] = await tx
      .insert(stdFindings)
      .values({
        projectId: actor.projectId,
        assessmentId: req.assessmentId,
        reqAssessmentId: req.id,
        source: input.source,
        tracerId: tracer?.id ?? null,
        text: input.text,
        likelihood: input.likelihood,
        scope: input.scope,
        immediateThreat: input.immediate_threat,
        citedOn: input.cited_on,
        dueDate: due,
        createdBy: actor.userId,
        updatedBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: stdFindings.id });
    await standardsAudit(
      tx,
      actor,
      'finding_created',
      { type: 'std_req_assessment', id: req.id },
      {
        finding_id: finding!.id,
        summary: [
          `Finding recorded (${input.likelihood} likelihood, ${input.scope} scope${input.immediate_threat ? ', immediate threat' : ''}), due ${due}`,
        ],
      },
      now,
    );
    return finding!.id;
  });
  return getFinding(db, actor, id, now);
}

/**
 * The sustainment reading: the measure's complete periods after the finding was cited, against its target. Read for
 * a person (`viewer`), a measure monitoring hides from them reads as none; the daily job reads it for the system.
 */
async function sustainOf(
  db: DbOrTx,
  projectId: number,
  row: FindingRow,
  now: Date,
  viewer?: Viewer,
): Promise<StdFinding['sustain']> {
  const required = row.successPeriods;
  const [measure] =
    row.measureId === null
      ? []
      : await db
          .select({ measure: monMeasures })
          .from(monMeasures)
          .innerJoin(monPages, and(eq(monPages.id, monMeasures.pageId), isNull(monPages.deletedAt)))
          .where(
            and(
              eq(monMeasures.projectId, projectId),
              eq(monMeasures.id, row.measureId),
              isNull(monMeasures.deletedAt),
              viewer ? await visibleMeasures(db, viewer) : undefined,
            ),
          );
  if (!measure) return { measure: null, target: null, required, latest: [], met: false };
  const m = measure.measure;
  const series = await seriesOfMeasure(
    db,
    m,
    { chart: m.chartDefault as SpcChart, stratum: '', ruleProfile: m.ruleProfile as SpcRuleSet },
    now,
  ).catch(() => null);
  const direction = m.direction as ImprovementDirection;
  const after = (series?.points ?? []).filter((p) => !p.provisional && p.period > row.citedOn);
  const latest = after.slice(-required).map((p) => ({
    period: p.period,
    value: p.value,
    met: p.value !== null && p.target !== null && (direction === 'down' ? p.value <= p.target : p.value >= p.target),
  }));
  const target = after.at(-1)?.target ?? null;
  return {
    measure: { id: m.id, name: m.name, page_id: m.pageId },
    target,
    required,
    latest,
    met: latest.length === required && latest.every((p) => p.met),
  };
}

/** GET /findings/{id} */
export async function getFinding(db: DbOrTx, actor: StandardsActor, id: number, now: Date): Promise<StdFinding> {
  const row = await loadFinding(db, actor.projectId, id);
  const req = await loadReq(db, actor.projectId, row.reqAssessmentId);
  const [node] = await db
    .select({ refId: stdNodes.refId, title: stdNodes.title })
    .from(stdNodes)
    .where(eq(stdNodes.id, req.nodeId));
  const actions = row.actions as ActionRow[];
  const ownerIds = [...new Set(actions.map((a) => a.owner_id).filter((v): v is number => v !== null))];
  const people = new Map(
    ownerIds.length === 0
      ? []
      : (await db.select({ id: users.id, name: personName }).from(users).where(inArray(users.id, ownerIds))).map(
          (u) => [u.id, u.name] as const,
        ),
  );
  const [creator] =
    row.createdBy === null ? [] : await db.select({ name: personName }).from(users).where(eq(users.id, row.createdBy));
  const today = isoDay(now);
  return {
    ...summaryOf(row, node!, today),
    assessment_id: row.assessmentId,
    version: row.version,
    created_by: creator?.name ?? 'Former user',
    created_at: row.createdAt.toISOString(),
    closed_note: row.closedNote,
    plan: {
      root_cause: row.rootCause,
      actions: actions.map((a) => ({
        what: a.what,
        owner: a.owner_id === null ? null : { id: a.owner_id, name: people.get(a.owner_id) ?? 'Former user' },
        due: a.due,
        done: a.done,
        overdue: !a.done && a.due !== null && a.due < today,
      })),
      leadership_involvement: row.leadershipInvolvement,
      preventive_analysis: row.preventiveAnalysis,
      measure_id: row.measureId,
      success_periods: row.successPeriods,
    },
    sustain: await sustainOf(db, actor.projectId, row, now, actor),
    abilities: serialize(findingRules, actor, await findingFacts(db, actor, req, row), ['edit', 'plan', 'close']),
  };
}

/** PUT /findings/{id}: corrects the finding (its cell and citation day move the due date). */
export async function updateFinding(
  db: Database,
  actor: StandardsActor,
  id: number,
  input: StdFindingInput & { version: number },
  now: Date,
): Promise<StdFinding> {
  await db.transaction(async (tx) => {
    const row = await loadFinding(tx, actor.projectId, id, true);
    const req = await loadReq(tx, actor.projectId, row.reqAssessmentId);
    authorize(findingRules, 'edit', actor, await findingFacts(tx, actor, req, row));
    if (row.version !== input.version) {
      throw new AppError('CONFLICT', 'Someone else changed this finding after you opened it. Reload to see it.');
    }
    const due = correctionDue(input.cited_on, input.immediate_threat);
    await saveFinding(tx, actor, row, now, {
      source: input.source,
      text: input.text,
      likelihood: input.likelihood,
      scope: input.scope,
      immediateThreat: input.immediate_threat,
      citedOn: input.cited_on,
      dueDate: due,
    });
    await standardsAudit(
      tx,
      actor,
      'finding_updated',
      { type: 'std_req_assessment', id: row.reqAssessmentId },
      {
        finding_id: row.id,
        summary: [`Finding ${row.id} changed (${input.likelihood} likelihood, ${input.scope} scope), due ${due}`],
        // Long text shortened to its first 200 characters (lib/audit-diff.ts).
        changes: changes(
          {
            source: row.source,
            text: row.text,
            likelihood: row.likelihood,
            scope: row.scope,
            immediate_threat: row.immediateThreat,
            cited_on: row.citedOn,
            due_date: row.dueDate,
          },
          {
            source: input.source,
            text: input.text,
            likelihood: input.likelihood,
            scope: input.scope,
            immediate_threat: input.immediate_threat,
            cited_on: input.cited_on,
            due_date: due,
          },
        ),
      },
      now,
    );
  });
  return getFinding(db, actor, id, now);
}

/** PUT /findings/{id}/plan: the plan of correction; a high-risk cell needs leadership and a preventive analysis. */
export async function savePlan(
  db: Database,
  actor: StandardsActor,
  id: number,
  input: StdPlanInput,
  now: Date,
): Promise<StdFinding> {
  await db.transaction(async (tx) => {
    const row = await loadFinding(tx, actor.projectId, id, true);
    const req = await loadReq(tx, actor.projectId, row.reqAssessmentId);
    if (row.status === 'closed')
      throw new AppError('CONFLICT', 'This finding is closed. Reopen it to change its plan.');
    authorize(findingRules, 'plan', actor, await findingFacts(tx, actor, req, row));
    const errors: Record<string, string[]> = {};
    if (needsLeadership(row.likelihood as SaferLikelihood, row.scope as SaferScope, row.immediateThreat)) {
      if (!input.leadership_involvement) {
        errors.leadership_involvement = ['A high-risk finding needs leadership involvement in its plan.'];
      }
      if (!input.preventive_analysis) {
        errors.preventive_analysis = ['A high-risk finding needs a preventive analysis in its plan.'];
      }
    }
    const owners = input.actions.map((a) => a.owner_id).filter((v): v is number => v !== null);
    if (owners.length > 0) {
      const allowed = await assignableIds(tx, actor.projectId);
      input.actions.forEach((a, i) => {
        if (a.owner_id !== null && !allowed.has(a.owner_id)) {
          errors[`actions.${i}.owner_id`] = ['Choose a person with a standards role that may own elements.'];
        }
      });
    }
    if (input.measure_id !== null) {
      const [measure] = await tx
        .select({ id: monMeasures.id })
        .from(monMeasures)
        .where(
          and(
            eq(monMeasures.projectId, actor.projectId),
            eq(monMeasures.id, input.measure_id),
            isNull(monMeasures.deletedAt),
            await visibleMeasures(tx, actor),
          ),
        );
      if (!measure) errors.measure_id = ['Choose a measure of this project.'];
    }
    const first = Object.values(errors)[0]?.[0];
    if (first) throw new AppError('VALIDATION_FAILED', first, errors);
    await saveFinding(tx, actor, row, now, {
      rootCause: input.root_cause,
      actions: input.actions,
      leadershipInvolvement: input.leadership_involvement,
      preventiveAnalysis: input.preventive_analysis,
      measureId: input.measure_id,
      successPeriods: input.success_periods,
      status: 'action_plan',
    });
    await standardsAudit(
      tx,
      actor,
      'finding_plan_saved',
      { type: 'std_req_assessment', id: row.reqAssessmentId },
      {
        finding_id: row.id,
        actions: input.actions.length,
        done: input.actions.filter((a) => a.done).length,
        measure_id: input.measure_id,
        summary: [
          `Plan of finding ${row.id} saved (${input.actions.filter((a) => a.done).length} of ${input.actions.length} actions done)`,
        ],
        changes: changes(
          {
            root_cause: row.rootCause,
            actions: row.actions,
            leadership_involvement: row.leadershipInvolvement,
            preventive_analysis: row.preventiveAnalysis,
            measure_id: row.measureId,
            success_periods: row.successPeriods,
            status: row.status,
          },
          {
            root_cause: input.root_cause,
            actions: input.actions,
            leadership_involvement: input.leadership_involvement,
            preventive_analysis: input.preventive_analysis,
            measure_id: input.measure_id,
            success_periods: input.success_periods,
            status: 'action_plan',
          },
        ),
      },
      now,
    );
  });
  return getFinding(db, actor, id, now);
}

/** POST /findings/{id}/close: every action done and the sustainment met (or no measure to sustain). */
export async function closeFinding(db: Database, actor: StandardsActor, id: number, note: string, now: Date) {
  const row = await loadFinding(db, actor.projectId, id);
  const req = await loadReq(db, actor.projectId, row.reqAssessmentId);
  authorize(findingRules, 'close', actor, await findingFacts(db, actor, req, row));
  const current = await getFinding(db, actor, id, now);
  if (current.status === 'closed') throw new AppError('CONFLICT', 'This finding is closed already.');
  if (current.plan.actions.length === 0 || current.plan.actions.some((a) => !a.done)) {
    throw new AppError('VALIDATION_FAILED', 'Finish every action of the plan before closing the finding.', {
      note: ['Finish every action of the plan before closing the finding.'],
    });
  }
  // Read as the system: the measure holds the finding open whoever may see it.
  const sustain = await sustainOf(db, actor.projectId, row, now);
  if (sustain.measure && !sustain.met) {
    const message = `The measure has not met its target for ${sustain.required} complete periods in a row yet.`;
    throw new AppError('VALIDATION_FAILED', message, { note: [message] });
  }
  await setClosed(db, actor, current, note, now, true);
  return getFinding(db, actor, id, now);
}

/** POST /findings/{id}/reopen */
export async function reopenFinding(db: Database, actor: StandardsActor, id: number, note: string, now: Date) {
  const row = await loadFinding(db, actor.projectId, id);
  const req = await loadReq(db, actor.projectId, row.reqAssessmentId);
  authorize(findingRules, 'close', actor, await findingFacts(db, actor, req, row));
  const current = await getFinding(db, actor, id, now);
  if (current.status !== 'closed') throw new AppError('CONFLICT', 'This finding is not closed.');
  await setClosed(db, actor, current, note, now, false);
  return getFinding(db, actor, id, now);
}

async function setClosed(
  db: Database,
  actor: StandardsActor,
  finding: StdFinding,
  note: string,
  now: Date,
  close: boolean,
) {
  await db.transaction(async (tx) => {
    const row = await loadFinding(tx, actor.projectId, finding.id, true);
    const status = close ? 'closed' : row.actions && (row.actions as ActionRow[]).length > 0 ? 'action_plan' : 'open';
    await saveFinding(tx, actor, row, now, {
      status,
      closedNote: close ? note : '',
      closedAt: close ? now : null,
    });
    await standardsAudit(
      tx,
      actor,
      close ? 'finding_closed' : 'finding_reopened',
      { type: 'std_req_assessment', id: row.reqAssessmentId },
      {
        finding_id: row.id,
        note,
        summary: [`Finding ${row.id} ${close ? 'closed' : 'reopened'}: ${note}`],
        changes: changes({ status: row.status }, { status }),
      },
      now,
    );
  });
}

/** GET /assessments/{id}/findings */
export async function listFindings(
  db: DbOrTx,
  actor: StandardsActor,
  assessmentId: number,
  status: StdFindingStatus | undefined,
  now: Date,
) {
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  return { findings: await findingSummaries(db, actor.projectId, assessment.id, now, status) };
}

/**
 * The daily job's half of the closed loop: findings with a plan whose actions are all done and whose measure met
 * its target for the required periods close with an automatic note. Reads every project (hence `unsafe`); each
 * finding is its own transaction, and only if nobody changed it since it was read.
 */
export async function unsafeCloseSustainedFindings(db: Database, now: Date): Promise<number[]> {
  const rows = (
    await db
      .select({ finding: stdFindings })
      .from(stdFindings)
      .innerJoin(projects, eq(projects.id, stdFindings.projectId))
      .where(
        and(
          eq(stdFindings.status, 'action_plan'),
          sql`${stdFindings.measureId} is not null`,
          eq(projects.isActive, true),
          sql`'standards' = any(${projects.activeApps})`,
        ),
      )
      .orderBy(asc(stdFindings.projectId), asc(stdFindings.id))
  ).map((r) => r.finding);
  const closed: number[] = [];
  for (const row of rows) {
    const actions = row.actions as ActionRow[];
    if (actions.length === 0 || actions.some((a) => !a.done)) continue;
    const sustain = await sustainOf(db, row.projectId, row, now);
    if (!sustain.met) continue;
    const done = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(stdFindings)
        .set({ status: 'closed', closedNote: AUTO_CLOSE_NOTE, closedAt: now, version: row.version + 1, updatedAt: now })
        .where(
          and(
            eq(stdFindings.projectId, row.projectId),
            eq(stdFindings.id, row.id),
            eq(stdFindings.version, row.version),
          ),
        )
        .returning({ id: stdFindings.id });
      if (!updated) return false;
      await standardsAudit(
        tx,
        { userId: null, projectId: row.projectId, ip: null, requestId: null },
        'finding_auto_closed',
        { type: 'std_req_assessment', id: row.reqAssessmentId },
        {
          finding_id: row.id,
          note: AUTO_CLOSE_NOTE,
          latest: sustain.latest,
          summary: [`Finding ${row.id} closed automatically`],
        },
        now,
      );
      return true;
    });
    if (done) closed.push(row.id);
  }
  return closed;
}
