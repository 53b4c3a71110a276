import { correctionDue, type StdResult } from '@portal/shared';
import { and, asc, eq, ilike, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import {
  crPrograms,
  monMeasures,
  policyDocuments,
  stdAssessments,
  stdComments,
  stdEvidence,
  stdFindings,
  stdFrameworks,
  stdLeads,
  stdMembers,
  stdNodeLocal,
  stdNodes,
  stdReqAssessments,
  stdTracers,
  traceLinks,
} from '../db/schema/index.js';
import { CMS_HOSPITAL_COP, ensureBuiltInFrameworks } from '../modules/standards/frameworks.service.js';

/**
 * Demo standards (issue 11): the CMS Conditions of Participation assessed in part for the Demo Facility. Standards
 * roles for the demo accounts (the admin is a standards admin as project admin), a self-assessment with owners by
 * condition, results on the quality, infection control, nursing and medical record conditions (one gap, one partial,
 * overdue items), the facility's own wording on two elements, and the closed loop: demo policies, measures and the
 * demo audit linked to the elements they support. Deterministic: the same on every install.
 */

export interface DemoStandardsPeople {
  admin: number;
  member: number;
  reviewer: number;
  reader: number;
}

const DAY = 86_400_000;
const day = (now: Date, offset: number) => new Date(now.getTime() + offset * DAY).toISOString().slice(0, 10);

/** Results by condition, element by element in document order (the rest stay not assessed). */
const RESULTS: Record<string, StdResult[]> = {
  '§482.12': ['compliant', 'compliant', 'compliant', 'compliant', 'compliant', 'compliant'],
  '§482.21': ['compliant', 'compliant', 'partially_compliant', 'compliant', 'compliant', 'compliant', 'compliant'],
  '§482.23': ['compliant', 'compliant', 'compliant', 'compliant'],
  '§482.24': ['compliant', 'non_compliant', 'compliant', 'compliant'],
  '§482.42': ['compliant', 'compliant', 'compliant', 'partially_compliant', 'compliant'],
};

const under = (refId: string, condition: string) => refId === condition || refId.startsWith(`${condition}(`);

export async function seedDemoStandards(tx: DbOrTx, projectId: number, people: DemoStandardsPeople, now: Date) {
  await ensureBuiltInFrameworks(tx);
  const [framework] = await tx
    .select()
    .from(stdFrameworks)
    .where(
      and(
        isNull(stdFrameworks.projectId),
        eq(stdFrameworks.code, CMS_HOSPITAL_COP.code),
        eq(stdFrameworks.edition, CMS_HOSPITAL_COP.edition),
      ),
    );
  if (!framework) return;
  await tx.insert(stdMembers).values([
    { projectId, userId: people.member, role: 'chapter_lead', updatedBy: people.admin },
    { projectId, userId: people.reviewer, role: 'owner', updatedBy: people.admin },
    { projectId, userId: people.reader, role: 'viewer', updatedBy: people.admin },
  ]);
  const nodes = await tx
    .select()
    .from(stdNodes)
    .where(eq(stdNodes.frameworkId, framework.id))
    .orderBy(asc(stdNodes.position));
  const byRef = new Map(nodes.map((n) => [n.refId, n]));
  const [assessment] = await tx
    .insert(stdAssessments)
    .values({
      projectId,
      frameworkId: framework.id,
      name: 'CMS Conditions of Participation: readiness self-assessment',
      kind: 'self',
      scopeNote: 'Main campus, inpatient and outpatient services. Swing beds are not offered.',
      surveyWindowStart: day(now, 60),
      surveyWindowEnd: day(now, 180),
      createdBy: people.admin,
    })
    .returning();
  const assessmentId = assessment!.id;

  // Owners by condition: quality and nursing to the member (who leads them), infection control and records to the
  // reviewer; everything else stays with nobody until the admin assigns it.
  const ownerBy: [string, number][] = [
    ['§482.21', people.member],
    ['§482.23', people.member],
    ['§482.42', people.reviewer],
    ['§482.24', people.reviewer],
    ['§482.12', people.admin],
  ];
  const ownerOf = (refId: string) => ownerBy.find(([condition]) => under(refId, condition))?.[1] ?? null;
  // Swing beds are not offered; the general provisions (basis, scope, definitions) hold nothing to assess.
  const naReason = (refId: string) =>
    under(refId, '§482.58')
      ? 'The hospital does not offer swing beds.'
      : under(refId, '§482.1') || under(refId, '§482.2')
        ? 'General provisions: basis, scope and definitions, nothing to assess.'
        : null;
  const seen = new Map<string, number>();
  const values = nodes
    .filter((n) => n.assessable)
    .map((n) => {
      const condition = Object.keys(RESULTS).find((c) => under(n.refId, c));
      const index = condition ? (seen.get(condition) ?? 0) : 0;
      if (condition) seen.set(condition, index + 1);
      const reason = naReason(n.refId);
      const result: StdResult = reason
        ? 'not_applicable'
        : condition
          ? (RESULTS[condition]![index] ?? 'not_assessed')
          : 'not_assessed';
      const assessed = result !== 'not_assessed' && result !== 'not_applicable';
      const gap = result === 'non_compliant' || result === 'partially_compliant';
      const owner = ownerOf(n.refId);
      return {
        projectId,
        assessmentId,
        nodeId: n.id,
        result,
        status: result === 'not_applicable' ? 'done' : gap ? 'in_progress' : assessed ? 'done' : 'to_do',
        naJustification: reason ?? '',
        ownerId: owner,
        // Gaps are due soon; one element of the records condition is overdue; the rest of an owner's work in 90 days.
        dueDate: gap ? day(now, result === 'non_compliant' ? -5 : 21) : owner && !assessed ? day(now, 90) : null,
        observation:
          result === 'non_compliant'
            ? 'Authentication of verbal orders was late in 4 of 20 records checked.'
            : result === 'partially_compliant'
              ? 'Met in most areas; evidence is incomplete for one unit.'
              : '',
        lastReviewedAt: assessed ? new Date(now.getTime() - 10 * DAY) : null,
        lastReviewedBy: assessed ? owner : null,
        updatedBy: people.admin,
      };
    });
  for (let i = 0; i < values.length; i += 500) await tx.insert(stdReqAssessments).values(values.slice(i, i + 500));

  const leads: [string, number][] = [
    ['§482.21', people.member],
    ['§482.23', people.member],
  ];
  for (const [ref, userId] of leads) {
    const node = byRef.get(ref);
    if (node)
      await tx.insert(stdLeads).values({ projectId, assessmentId, nodeId: node.id, userId, createdBy: people.admin });
  }

  // The closed loop: the first element of a condition linked to a policy, a measure or the audit that supports it.
  const firstElement = (condition: string) => nodes.find((n) => n.assessable && under(n.refId, condition));
  const policyId = async (title: string) =>
    (
      await tx
        .select({ id: policyDocuments.id })
        .from(policyDocuments)
        .where(and(eq(policyDocuments.projectId, projectId), eq(policyDocuments.title, title)))
    )[0]?.id;
  const measureIdOf = async (name: string) =>
    (
      await tx
        .select({ id: monMeasures.id })
        .from(monMeasures)
        .where(and(eq(monMeasures.projectId, projectId), ilike(monMeasures.name, `${name}%`)))
    )[0]?.id;
  const programId = async (name: string) =>
    (
      await tx
        .select({ id: crPrograms.id })
        .from(crPrograms)
        .where(and(eq(crPrograms.projectId, projectId), eq(crPrograms.name, name)))
    )[0]?.id;
  const links: {
    condition: string;
    type: 'policy' | 'measure' | 'cr_program';
    id: number | undefined;
    note: string;
  }[] = [
    { condition: '§482.42', type: 'policy', id: await policyId('Infection prevention and control'), note: '' },
    { condition: '§482.42', type: 'policy', id: await policyId('Hand hygiene'), note: 'Section 3, moments of care' },
    { condition: '§482.42', type: 'measure', id: await measureIdOf('Hand hygiene compliance'), note: '' },
    { condition: '§482.42', type: 'measure', id: await measureIdOf('CLABSI'), note: 'Surveillance data' },
    { condition: '§482.21', type: 'measure', id: await measureIdOf('Falls with injury'), note: 'QAPI indicator' },
    { condition: '§482.12', type: 'policy', id: await policyId('Governance of policies and procedures'), note: '' },
    { condition: '§482.23', type: 'policy', id: await policyId('Nursing practice'), note: '' },
    {
      condition: '§482.23',
      type: 'cr_program',
      id: await programId('Pain reassessment documentation'),
      note: 'Monthly chart audit',
    },
    { condition: '§482.24', type: 'policy', id: await policyId('Document retention'), note: '' },
  ];
  for (const link of links) {
    const node = firstElement(link.condition);
    if (!node || link.id === undefined) continue;
    await tx
      .insert(traceLinks)
      .values({
        projectId,
        nodeId: node.id,
        targetType: link.type,
        targetId: link.id,
        note: link.note,
        createdBy: people.admin,
      })
      .onConflictDoNothing();
  }

  const qapi = firstElement('§482.21');
  if (qapi) {
    await tx.insert(stdNodeLocal).values({
      projectId,
      nodeId: qapi.id,
      wording: 'The Quality Council approves the QAPI plan each January and reviews the indicator dashboard monthly.',
      guidance: 'Evidence: council minutes, the approved plan, the monthly dashboard.',
      updatedBy: people.member,
    });
    const [req] = await tx
      .select({ id: stdReqAssessments.id })
      .from(stdReqAssessments)
      .where(and(eq(stdReqAssessments.assessmentId, assessmentId), eq(stdReqAssessments.nodeId, qapi.id)));
    if (req) {
      await tx.insert(stdComments).values({
        projectId,
        reqAssessmentId: req.id,
        authorId: people.admin,
        body: 'Attach the January council minutes before the mock survey.',
      });
    }
  }

  await seedDemoFindings(tx, projectId, assessmentId, people, now, measureIdOf);
}

/**
 * Findings of the demo: the records gap from a mock survey with a plan under way, a partial infection control
 * element from the self-assessment, and an individual tracer with the finding it produced; one evidence note on the
 * QAPI plan.
 */
async function seedDemoFindings(
  tx: DbOrTx,
  projectId: number,
  assessmentId: number,
  people: DemoStandardsPeople,
  now: Date,
  measureIdOf: (name: string) => Promise<number | undefined>,
) {
  const reqs = await tx
    .select({ id: stdReqAssessments.id, result: stdReqAssessments.result, refId: stdNodes.refId })
    .from(stdReqAssessments)
    .innerJoin(stdNodes, eq(stdNodes.id, stdReqAssessments.nodeId))
    .where(eq(stdReqAssessments.assessmentId, assessmentId))
    .orderBy(asc(stdNodes.position));
  const gap = (condition: string, result: StdResult) =>
    reqs.find((r) => r.result === result && under(r.refId, condition));
  const records = gap('§482.24', 'non_compliant');
  const infection = gap('§482.42', 'partially_compliant');
  const nursing = reqs.find((r) => under(r.refId, '§482.23'));
  const qapi = reqs.find((r) => under(r.refId, '§482.21'));
  const cited = (days: number) => day(now, -days);
  if (records) {
    await tx.insert(stdFindings).values({
      projectId,
      assessmentId,
      reqAssessmentId: records.id,
      source: 'mock',
      text: 'Verbal orders were authenticated after 48 hours in 4 of 20 records checked on the medical wards.',
      likelihood: 'moderate',
      scope: 'pattern',
      citedOn: cited(20),
      dueDate: correctionDue(cited(20), false),
      status: 'action_plan',
      rootCause: 'Prescribers are not reminded of orders waiting for their signature.',
      actions: [
        {
          what: 'Add a daily list of unsigned verbal orders to the ward huddle',
          owner_id: people.reviewer,
          due: day(now, 10),
          done: true,
        },
        {
          what: 'Re-audit 20 records in each of the next three months',
          owner_id: people.reviewer,
          due: day(now, 75),
          done: false,
        },
      ],
      createdBy: people.admin,
      updatedBy: people.reviewer,
    });
  }
  if (infection) {
    const handHygiene = await measureIdOf('Hand hygiene compliance');
    await tx.insert(stdFindings).values({
      projectId,
      assessmentId,
      reqAssessmentId: infection.id,
      source: 'self',
      text: 'Hand hygiene observations were missing for the outpatient clinics in two months.',
      likelihood: 'low',
      scope: 'limited',
      citedOn: cited(12),
      dueDate: correctionDue(cited(12), false),
      status: 'action_plan',
      rootCause: 'No observer was named for the clinics after a staff change.',
      actions: [
        { what: 'Name and train two clinic observers', owner_id: people.reviewer, due: day(now, 20), done: false },
      ],
      measureId: handHygiene ?? null,
      successPeriods: 3,
      createdBy: people.reviewer,
      updatedBy: people.reviewer,
    });
  }
  if (nursing) {
    const [tracer] = await tx
      .insert(stdTracers)
      .values({
        projectId,
        assessmentId,
        kind: 'individual',
        title: 'Patient admitted through the emergency department to a medical ward',
        tracedOn: cited(6),
        unit: 'Ward 3',
        leadId: people.member,
        caseCode: 'TR-2611-01',
        summary: 'Followed triage, admission, the first 24 hours of nursing care, medication and the discharge plan.',
        createdBy: people.member,
        updatedBy: people.member,
      })
      .returning({ id: stdTracers.id });
    await tx.insert(stdFindings).values({
      projectId,
      assessmentId,
      reqAssessmentId: nursing.id,
      source: 'tracer',
      tracerId: tracer!.id,
      text: 'The nursing care plan was not updated after the patient fell on day 2.',
      likelihood: 'high',
      scope: 'limited',
      citedOn: cited(6),
      dueDate: correctionDue(cited(6), false),
      createdBy: people.member,
      updatedBy: people.member,
    });
  }
  if (qapi) {
    await tx.insert(stdEvidence).values({
      projectId,
      reqAssessmentId: qapi.id,
      kind: 'note',
      title: 'QAPI plan 2026 approved by the governing body',
      note: 'Board minutes of 14 January 2026, item 5.',
      status: 'approved',
      expiresOn: day(now, 45),
      createdBy: people.member,
      updatedBy: people.member,
    });
  }
}
