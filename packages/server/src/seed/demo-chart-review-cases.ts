import {
  type AnswerValue,
  drawSample,
  questionCompliance,
  SAMPLING_ALGORITHM,
  type SamplingPlan,
} from '@portal/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import {
  crActionPlans,
  crAnswers,
  crAssignments,
  crCaseResults,
  crCases,
  crFindings,
  crIrrPairs,
  crPrograms,
  crQuestions,
  crSamples,
} from '../db/schema/index.js';
import { encrypt, sha256 } from '../lib/crypto.js';
import { recomputeCase } from '../modules/chart-review/case-results.js';
import { findingTitle } from '../modules/chart-review/findings.service.js';
import { refHash } from '../modules/chart-review/sampling.service.js';

/**
 * The demo programme's reviews (issue 10): three past months sampled, reviewed and scored (one second review a
 * month, one disagreement adjudicated), the current month locked with reviews waiting for the demo reviewer and the
 * programme lead, and a finding with its action plan on the reassessment question, whose compliance climbs from
 * about 60 % to about 90 % over the three months. Everything is generated from fixed seeds, so every demo install
 * shows the same figures (relative to the month it was installed in).
 */
export interface DemoChartReviewCasePeople {
  /** chart_review_admin: second reviews */
  admin: number;
  /** program_lead: some primary reviews, adjudicates */
  member: number;
  /** reviewer: most primary reviews */
  reviewer: number;
}

const CASES_PER_UNIT = 8;
/**
 * How many of each month's ten cases meet each question (oldest month first): reassessment climbs from 6 to 10 as the
 * action plan takes hold. Which cases fall short is spread by a fixed pattern, so every install shows the same figures.
 */
const MET_OF_TEN: Record<string, [number, number, number]> = {
  pain_assessed: [10, 10, 10],
  analgesia_given: [9, 10, 10],
  reassessed_in_time: [6, 8, 10],
  goal_documented: [8, 8, 9],
  education_given: [9, 8, 9],
};

const monthStart = (now: Date, back: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 10);
const addDays = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const at = (day: string, hour: number) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);

export async function seedDemoChartReviewCases(
  tx: DbOrTx,
  projectId: number,
  people: DemoChartReviewCasePeople,
  appKey: Buffer,
  now: Date,
): Promise<void> {
  const [program] = await tx.select().from(crPrograms).where(eq(crPrograms.projectId, projectId));
  if (!program) throw new Error('The demo programme must be seeded first.');
  const [version] = await tx
    .select({ id: crQuestions.toolVersionId })
    .from(crQuestions)
    .where(eq(crQuestions.projectId, projectId))
    .limit(1);
  const questions = await tx
    .select()
    .from(crQuestions)
    .where(and(eq(crQuestions.projectId, projectId), eq(crQuestions.toolVersionId, version!.id)))
    .orderBy(asc(crQuestions.position));

  let adjudicatedOnce = false;
  let firstPeriod = '';
  // Three submitted months (back 3, 2, 1) and the current one with reviews to do (back 0).
  for (const back of [3, 2, 1, 0]) {
    const period = monthStart(now, back);
    if (back === 3) firstPeriod = period;
    const past = back > 0;
    const monthIndex = 3 - back;
    const eligible = program.units.flatMap((unit, u) =>
      Array.from({ length: CASES_PER_UNIT }, (_, i) => ({
        ref: `ENC-${period.slice(0, 7).replace('-', '')}-${String(u * 100 + i + 1).padStart(4, '0')}`,
        unit,
      })),
    );
    const file = eligible.map((c) => `${c.ref},${c.unit},${period}`).join('\n');
    const plan = program.sampling as SamplingPlan;
    const seed = `demo-${period}`;
    const drawn = drawSample({ cases: eligible, plan, seed });
    const lockedOn = past ? addDays(period, 35) : now.toISOString().slice(0, 10);
    const [sample] = await tx
      .insert(crSamples)
      .values({
        projectId,
        programId: program.id,
        periodStart: period,
        fileName: `eligible-${period.slice(0, 7)}.csv`,
        fileSha256: sha256(`encounter,unit,discharge_date\n${file}\n`),
        rowCount: eligible.length,
        status: 'locked',
        plan,
        seed,
        algorithm: SAMPLING_ALGORITHM,
        size: drawn.size,
        byStratum: drawn.byStratum,
        toolVersionId: version!.id,
        uploadedBy: people.member,
        drawnAt: at(lockedOn, 8),
        drawnBy: people.member,
        lockedAt: at(lockedOn, 9),
        lockedBy: people.member,
      })
      .returning({ id: crSamples.id });

    const selected: { id: number; unit: string }[] = [];
    for (const [i, c] of drawn.ranked.entries()) {
      const [row] = await tx
        .insert(crCases)
        .values({
          projectId,
          sampleId: sample!.id,
          programId: program.id,
          periodStart: period,
          caseCode: `CR-${period.slice(0, 7)}-${String(1000 + ((i * 7919 + back * 131) % 9000)).padStart(4, '0')}`,
          unit: c.unit,
          dischargeMonth: period,
          encounterRefEnc: encrypt(c.ref, appKey),
          refHash: refHash(c.ref, appKey),
          stratum: c.stratum,
          sampleRank: c.rank,
          status: c.selected ? 'selected' : 'eligible',
        })
        .returning({ id: crCases.id });
      if (c.selected) selected.push({ id: row!.id, unit: c.unit ?? '' });
    }

    // Case i (0..9) meets question q when its place in a pattern that differs per question is below the count; the
    // last case of each month had no pain score of 4 or more (analgesia N/A, reassessment hidden).
    const answerFor = (key: string, q: number, i: number, visible: boolean): AnswerValue | null => {
      if (!visible) return null;
      if (key === 'analgesia_given' && i === 9) return 'na';
      const met = MET_OF_TEN[key]?.[Math.min(monthIndex, 2)] ?? 9;
      return (i * 7 + q * 3) % 10 < met ? 'yes' : 'no';
    };
    const due = addDays(lockedOn, program.dueDays);
    for (const [i, kase] of selected.entries()) {
      const reviewer = i % 3 === 2 ? people.member : people.reviewer;
      const status = past ? 'submitted' : 'assigned';
      const submittedAt = past ? at(addDays(lockedOn, 2 + (i % 10)), 10 + (i % 6)) : null;
      const [primary] = await tx
        .insert(crAssignments)
        .values({
          projectId,
          caseId: kase.id,
          programId: program.id,
          toolVersionId: version!.id,
          reviewerId: reviewer,
          dueAt: due,
          status,
          version: past ? 1 : 0,
          startedAt: submittedAt,
          submittedAt,
        })
        .returning({ id: crAssignments.id });
      // The first case of each month is the reliability share: a blind second review by the chart review admin.
      const second =
        i === 0
          ? (
              await tx
                .insert(crAssignments)
                .values({
                  projectId,
                  caseId: kase.id,
                  programId: program.id,
                  toolVersionId: version!.id,
                  reviewerId: people.admin,
                  role: 'second',
                  blind: true,
                  dueAt: due,
                  status,
                  version: past ? 1 : 0,
                  startedAt: submittedAt,
                  submittedAt,
                })
                .returning({ id: crAssignments.id })
            )[0]
          : undefined;
      if (!past) continue;

      const values: Record<string, AnswerValue | null> = {};
      for (const [q, question] of questions.entries()) {
        const visible = question.key !== 'reassessed_in_time' || values.analgesia_given === 'yes';
        values[question.key] = answerFor(question.key, q, i, visible);
      }
      const rows = (assignmentId: number, answers: Record<string, AnswerValue | null>) =>
        questions
          .filter((q) => answers[q.key] !== null)
          .map((q) => ({
            projectId,
            assignmentId,
            questionId: q.id,
            value: answers[q.key],
            naReason: answers[q.key] === 'na' ? 'No pain score of 4 or more during the stay.' : '',
            evidenceLocation: q.key === 'reassessed_in_time' ? 'MAR and pain flowsheet' : '',
          }));
      await tx.insert(crAnswers).values(rows(primary!.id, values));
      if (second) {
        // The middle month's second reviewer read the care plan differently: a disagreement, adjudicated.
        const disagree = monthIndex === 1;
        const secondValues = disagree
          ? { ...values, goal_documented: values.goal_documented === 'yes' ? 'no' : ('yes' as AnswerValue) }
          : values;
        await tx.insert(crAnswers).values(rows(second.id, secondValues as Record<string, AnswerValue | null>));
        if (disagree) {
          await tx.insert(crIrrPairs).values({
            projectId,
            caseId: kase.id,
            primaryAssignmentId: primary!.id,
            secondAssignmentId: second.id,
            status: 'adjudicated',
            itemsCompared: rows(primary!.id, values).length,
            itemsAgreed: rows(primary!.id, values).length - 1,
            final: {
              goal_documented: {
                value: 'yes',
                comment: 'The comfort goal is in the nursing care plan, not the physician notes.',
              },
            },
            adjudicatedAt: submittedAt,
            adjudicatedBy: people.member,
          });
          adjudicatedOnce = true;
        }
      }
      await recomputeCase(tx, projectId, kase.id, now);
    }
  }
  if (!adjudicatedOnce) throw new Error('The demo needs one adjudicated second review.');

  // The finding: reassessment in the first month, with its action plan under way.
  const results = await tx
    .select({ answers: crCaseResults.answers })
    .from(crCaseResults)
    .where(
      and(
        eq(crCaseResults.projectId, projectId),
        eq(crCaseResults.programId, program.id),
        eq(crCaseResults.periodStart, firstPeriod),
        eq(crCaseResults.counts, true),
      ),
    );
  const reassessed = questionCompliance(
    results.map((r) => (r.answers as Record<string, AnswerValue>).reassessed_in_time ?? null),
    { partialEnabled: false },
  );
  const question = questions.find((q) => q.key === 'reassessed_in_time')!;
  const [finding] = await tx
    .insert(crFindings)
    .values({
      projectId,
      programId: program.id,
      periodStart: firstPeriod,
      unit: null,
      questionKey: question.key,
      // Rate and target worded as every finding's title is (findingTitle: the shared percent format).
      title: findingTitle(
        { questionKey: question.key, unit: null },
        'Pain reassessed within 60 minutes',
        reassessed,
        program.target,
      ),
      rate: reassessed.rate,
      n: reassessed.n,
      target: program.target,
      status: 'action_plan',
      createdAt: at(addDays(firstPeriod, 40), 9),
      createdBy: people.member,
      updatedBy: people.member,
    })
    .returning({ id: crFindings.id });
  await tx.insert(crActionPlans).values({
    projectId,
    findingId: finding!.id,
    rootCause:
      'Reassessment scores are charted on the paper flowsheet during busy periods and never reach the MAR; the ' +
      'electronic reminder fires only for IV doses.',
    actions: [
      {
        what: 'Turn on the 60-minute reassessment reminder for oral and IM analgesics',
        owner_id: people.admin,
        due: addDays(firstPeriod, 50),
        done_at: at(addDays(firstPeriod, 48), 15).toISOString(),
      },
      {
        what: 'Teach the reassessment standard at every ward huddle for two weeks',
        owner_id: people.member,
        due: addDays(firstPeriod, 60),
        done_at: at(addDays(firstPeriod, 58), 11).toISOString(),
      },
      {
        what: 'Report reassessment compliance to the nursing quality committee monthly',
        owner_id: people.member,
        due: addDays(monthStart(now, 0), 20),
        done_at: null,
      },
    ],
    successPeriods: 2,
    createdBy: people.member,
    updatedBy: people.member,
  });
}
