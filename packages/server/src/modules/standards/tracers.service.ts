import type {
  StdFinding,
  StdTracer,
  StdTracerFindingInput,
  StdTracerInput,
  StdTracerKind,
  StdTracerSummary,
} from '@portal/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { stdFindings, stdTracers, users } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { authorize, serialize } from '../../policies/rules.js';
import type { StandardsActor } from '../../policies/standards.js';
import { tracerRules } from '../../policies/standards-records.js';
import { createFinding, findingSummaries } from './findings.service.js';
import { listMembers } from './people.service.js';
import { loadAssessment } from './records.js';
import { standardsAudit } from './route-kit.js';

/**
 * Tracers (docs/standards.md "Tracers"): a mock survey's way of following one patient's care (by case code only),
 * one process or one program, recorded with its date, unit and lead, and the findings it produced on the elements
 * they concern. Standards admins, chapter leads and mock assessors run tracers (policies/standards-records.ts
 * tracerRules); each finding is still checked against the element (mock assessors anywhere, leads below their nodes).
 */

type TracerRow = typeof stdTracers.$inferSelect;

async function loadTracer(db: DbOrTx, projectId: number, id: number): Promise<TracerRow> {
  const [row] = await db
    .select()
    .from(stdTracers)
    .where(and(eq(stdTracers.projectId, projectId), eq(stdTracers.id, id)));
  if (!row) throw notFound('Tracer not found.');
  return row;
}

/** A tracer's lead is anyone with a standards role in the project (mock assessors too). */
async function validLead(db: DbOrTx, actor: StandardsActor, leadId: number | null): Promise<void> {
  if (leadId === null) return;
  const members = await listMembers(db, actor);
  if (!members.some((m) => m.user_id === leadId && m.effective_role !== null)) {
    const message = 'Choose a person with a standards role.';
    throw new AppError('VALIDATION_FAILED', message, { lead_id: [message] });
  }
}

async function summaries(db: DbOrTx, projectId: number, assessmentId: number): Promise<StdTracerSummary[]> {
  const rows = await db
    .select({
      tracer: stdTracers,
      leadName: personName,
      findings: sql<number>`(select count(*)::int from ${stdFindings} f where f.tracer_id = ${stdTracers.id})`,
      open: sql<number>`(select count(*)::int from ${stdFindings} f where f.tracer_id = ${stdTracers.id} and f.status <> 'closed')`,
    })
    .from(stdTracers)
    .leftJoin(users, eq(users.id, stdTracers.leadId))
    .where(and(eq(stdTracers.projectId, projectId), eq(stdTracers.assessmentId, assessmentId)))
    .orderBy(desc(stdTracers.tracedOn), desc(stdTracers.id));
  return rows.map((r) => ({
    id: r.tracer.id,
    kind: r.tracer.kind as StdTracerKind,
    title: r.tracer.title,
    traced_on: r.tracer.tracedOn,
    unit: r.tracer.unit,
    lead: r.tracer.leadId === null ? null : { id: r.tracer.leadId, name: r.leadName ?? 'Former user' },
    case_code: r.tracer.caseCode,
    findings: r.findings,
    open_findings: r.open,
  }));
}

/** GET /assessments/{id}/tracers */
export async function listTracers(db: DbOrTx, actor: StandardsActor, assessmentId: number) {
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  return {
    tracers: await summaries(db, actor.projectId, assessment.id),
    abilities: serialize(tracerRules, actor, { projectId: assessment.projectId }, ['create']),
  };
}

/** GET /tracers/{id} */
export async function getTracer(db: DbOrTx, actor: StandardsActor, id: number, now: Date): Promise<StdTracer> {
  const tracer = await loadTracer(db, actor.projectId, id);
  const [summary] = (await summaries(db, actor.projectId, tracer.assessmentId)).filter((t) => t.id === tracer.id);
  const [creator] =
    tracer.createdBy === null
      ? []
      : await db.select({ name: personName }).from(users).where(eq(users.id, tracer.createdBy));
  const findings = await findingSummaries(db, actor.projectId, tracer.assessmentId, now);
  return {
    ...summary!,
    assessment_id: tracer.assessmentId,
    summary: tracer.summary,
    created_by: creator?.name ?? 'Former user',
    created_at: tracer.createdAt.toISOString(),
    finding_list: findings.filter((f) => f.tracer_id === tracer.id),
    abilities: serialize(tracerRules, actor, { projectId: tracer.projectId }, ['edit']),
  };
}

/** POST /assessments/{id}/tracers */
export async function createTracer(
  db: Database,
  actor: StandardsActor,
  assessmentId: number,
  input: StdTracerInput,
  now: Date,
): Promise<StdTracer> {
  const assessment = await loadAssessment(db, actor.projectId, assessmentId);
  authorize(tracerRules, 'create', actor, { projectId: assessment.projectId });
  await validLead(db, actor, input.lead_id);
  const id = await db.transaction(async (tx) => {
    const [tracer] = await tx
      .insert(stdTracers)
      .values({
        projectId: actor.projectId,
        assessmentId: assessment.id,
        kind: input.kind,
        title: input.title,
        tracedOn: input.traced_on,
        unit: input.unit,
        leadId: input.lead_id,
        caseCode: input.case_code,
        summary: input.summary,
        createdBy: actor.userId,
        updatedBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: stdTracers.id });
    await standardsAudit(
      tx,
      actor,
      'tracer_created',
      { type: 'std_tracer', id: tracer!.id },
      {
        kind: input.kind,
        title: input.title,
        traced_on: input.traced_on,
      },
      now,
    );
    return tracer!.id;
  });
  return getTracer(db, actor, id, now);
}

/** PUT /tracers/{id} */
export async function updateTracer(
  db: Database,
  actor: StandardsActor,
  id: number,
  input: StdTracerInput,
  now: Date,
): Promise<StdTracer> {
  const tracer = await loadTracer(db, actor.projectId, id);
  authorize(tracerRules, 'edit', actor, { projectId: tracer.projectId });
  await validLead(db, actor, input.lead_id);
  await db.transaction(async (tx) => {
    await tx
      .update(stdTracers)
      .set({
        kind: input.kind,
        title: input.title,
        tracedOn: input.traced_on,
        unit: input.unit,
        leadId: input.lead_id,
        caseCode: input.case_code,
        summary: input.summary,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(and(eq(stdTracers.projectId, actor.projectId), eq(stdTracers.id, tracer.id)));
    await standardsAudit(
      tx,
      actor,
      'tracer_updated',
      { type: 'std_tracer', id: tracer.id },
      {
        title: input.title,
        // A long summary shortened to its first 200 characters (lib/audit-diff.ts).
        changes: changes(
          {
            kind: tracer.kind,
            title: tracer.title,
            traced_on: tracer.tracedOn,
            unit: tracer.unit,
            lead_id: tracer.leadId,
            case_code: tracer.caseCode,
            summary: tracer.summary,
          },
          {
            kind: input.kind,
            title: input.title,
            traced_on: input.traced_on,
            unit: input.unit,
            lead_id: input.lead_id,
            case_code: input.case_code,
            summary: input.summary,
          },
        ),
      },
      now,
    );
  });
  return getTracer(db, actor, id, now);
}

/** POST /tracers/{id}/findings: a finding from the tracer on one element of its assessment. */
export async function recordTracerFinding(
  db: Database,
  actor: StandardsActor,
  id: number,
  input: StdTracerFindingInput,
  now: Date,
): Promise<StdFinding> {
  const tracer = await loadTracer(db, actor.projectId, id);
  const { req_id: reqId, ...finding } = input;
  return createFinding(db, actor, reqId, { ...finding, source: 'tracer' }, now, {
    id: tracer.id,
    assessmentId: tracer.assessmentId,
  });
}
