import { type AnswerValue, scoreCase } from '@portal/shared';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import {
  crAnswers,
  crAssignments,
  crCaseResults,
  crCases,
  crFindings,
  crIrrPairs,
  crQuestions,
  crSamples,
} from '../src/db/schema/index.js';

/**
 * Fixtures of the dashboard tests (chart review part 2): samples, cases, review assignments with their answers,
 * materialised case results and second-review pairs, inserted directly as the sampling and review calls would leave
 * them (docs/chart-review.md; the schema comments of db/schema/chart-review-cases.ts are the contract). Results are
 * scored with the shared engine (scoreCase), as the review submit does.
 */

export type Answers = Record<string, AnswerValue | null>;
type SampleRow = typeof crSamples.$inferSelect;
type CaseRow = typeof crCases.$inferSelect;
type AssignmentRow = typeof crAssignments.$inferSelect;

export async function questionsOfVersion(db: Database, toolVersionId: number) {
  return db
    .select()
    .from(crQuestions)
    .where(eq(crQuestions.toolVersionId, toolVersionId))
    .orderBy(asc(crQuestions.position));
}

/** A sample of a programme's period (locked, with its tool version, unless told otherwise). */
export async function insertSample(
  db: Database,
  values: {
    projectId: number;
    programId: number;
    periodStart: string;
    toolVersionId: number | null;
    status?: 'uploaded' | 'drawn' | 'locked';
  },
): Promise<SampleRow> {
  const [row] = await db
    .insert(crSamples)
    .values({
      projectId: values.projectId,
      programId: values.programId,
      periodStart: values.periodStart,
      fileName: 'eligible.csv',
      fileSha256: 'a'.repeat(64),
      rowCount: 100,
      status: values.status ?? 'locked',
      seed: 'seed-1',
      algorithm: 'sfc32-cyrb128-fisher-yates-v1',
      toolVersionId: values.toolVersionId,
    })
    .returning();
  return row!;
}

/** A case of a sample: selected unless told otherwise; the code doubles as its reference hash. */
export async function insertCase(
  db: Database,
  sample: SampleRow,
  values: {
    code: string;
    unit: string | null;
    dischargeMonth?: string | null;
    status?: 'eligible' | 'selected' | 'excluded';
    encounterRefEnc?: string | null;
  },
): Promise<CaseRow> {
  const [row] = await db
    .insert(crCases)
    .values({
      projectId: sample.projectId,
      sampleId: sample.id,
      programId: sample.programId,
      periodStart: sample.periodStart,
      caseCode: values.code,
      unit: values.unit,
      dischargeMonth: values.dischargeMonth === undefined ? sample.periodStart : values.dischargeMonth,
      refHash: `hash-${values.code}`,
      encounterRefEnc: values.encounterRefEnc ?? null,
      stratum: values.unit,
      sampleRank: 1,
      status: values.status ?? 'selected',
    })
    .returning();
  return row!;
}

/** A review of a case (primary and submitted unless told otherwise). */
export async function insertAssignment(
  db: Database,
  kase: CaseRow,
  values: {
    reviewerId: number;
    toolVersionId: number;
    role?: 'primary' | 'second';
    status?: 'assigned' | 'in_progress' | 'submitted' | 'returned';
    dueAt?: string;
  },
): Promise<AssignmentRow> {
  const status = values.status ?? 'submitted';
  const [row] = await db
    .insert(crAssignments)
    .values({
      projectId: kase.projectId,
      caseId: kase.id,
      programId: kase.programId,
      toolVersionId: values.toolVersionId,
      reviewerId: values.reviewerId,
      role: values.role ?? 'primary',
      blind: values.role === 'second',
      dueAt: values.dueAt ?? '2026-12-31',
      status,
      submittedAt: status === 'submitted' ? new Date('2026-03-20T10:00:00Z') : null,
    })
    .returning();
  return row!;
}

/** The answers of a review, by question key of its tool version. */
export async function insertAnswers(db: Database, assignment: AssignmentRow, answers: Answers): Promise<void> {
  const questions = await questionsOfVersion(db, assignment.toolVersionId);
  const values = Object.entries(answers).map(([key, value]) => {
    const question = questions.find((q) => q.key === key);
    if (!question) throw new Error(`No question ${key} in version ${assignment.toolVersionId}.`);
    return { projectId: assignment.projectId, assignmentId: assignment.id, questionId: question.id, value };
  });
  if (values.length) await db.insert(crAnswers).values(values);
}

/** The materialised result of a case, scored with the shared engine over the version's questions. */
export async function insertResult(
  db: Database,
  kase: CaseRow,
  values: { toolVersionId: number; answers: Answers; counts?: boolean; partialEnabled?: boolean },
): Promise<void> {
  const questions = await questionsOfVersion(db, values.toolVersionId);
  const scored = scoreCase(questions, values.answers, { partialEnabled: values.partialEnabled ?? false });
  const answers = Object.fromEntries(Object.entries(values.answers).filter(([, value]) => value !== null));
  await db.insert(crCaseResults).values({
    caseId: kase.id,
    projectId: kase.projectId,
    programId: kase.programId,
    periodStart: kase.periodStart,
    unit: kase.unit,
    toolVersionId: values.toolVersionId,
    score: scored.score,
    applicable: scored.applicable,
    met: scored.met,
    allOrNone: scored.allOrNone,
    answers,
    counts: values.counts ?? true,
  });
}

/**
 * A sampled case reviewed and submitted by `reviewerId` with `answers`, its answers stored and its result counted
 * (unless `counts` is false).
 */
export async function reviewedCase(
  db: Database,
  sample: SampleRow,
  values: {
    code: string;
    unit: string | null;
    reviewerId: number;
    answers: Answers;
    counts?: boolean;
    dischargeMonth?: string | null;
    partialEnabled?: boolean;
    encounterRefEnc?: string | null;
  },
): Promise<{ kase: CaseRow; primary: AssignmentRow }> {
  const toolVersionId = sample.toolVersionId!;
  const kase = await insertCase(db, sample, values);
  const primary = await insertAssignment(db, kase, { reviewerId: values.reviewerId, toolVersionId });
  await insertAnswers(db, primary, values.answers);
  await insertResult(db, kase, { toolVersionId, ...values });
  return { kase, primary };
}

/** A second review of a reviewed case with its answers and the pair comparing them. */
export async function insertSecondReview(
  db: Database,
  reviewed: { kase: CaseRow; primary: AssignmentRow },
  values: {
    reviewerId: number;
    answers: Answers;
    status: 'pending' | 'agreed' | 'disagreed' | 'adjudicated';
  },
): Promise<void> {
  const second = await insertAssignment(db, reviewed.kase, {
    reviewerId: values.reviewerId,
    toolVersionId: reviewed.primary.toolVersionId,
    role: 'second',
    status: values.status === 'pending' ? 'in_progress' : 'submitted',
  });
  await insertAnswers(db, second, values.answers);
  await db.insert(crIrrPairs).values({
    projectId: reviewed.kase.projectId,
    caseId: reviewed.kase.id,
    primaryAssignmentId: reviewed.primary.id,
    secondAssignmentId: second.id,
    status: values.status,
  });
}

/** A finding of a programme's period. */
export async function insertFinding(
  db: Database,
  values: {
    projectId: number;
    programId: number;
    periodStart: string;
    status: 'open' | 'action_plan' | 'closed';
    questionKey?: string | null;
  },
): Promise<void> {
  await db.insert(crFindings).values({
    projectId: values.projectId,
    programId: values.programId,
    periodStart: values.periodStart,
    questionKey: values.questionKey ?? null,
    title: `Finding ${values.status}`,
    rate: 0.5,
    n: 10,
    target: 0.9,
    status: values.status,
  });
}
