import { type CrAnswerValue, reviewQuestionStates, type ScoredAnswer, scoreCase } from '@portal/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { crAnswers, crAssignments, crCaseResults, crCases, crIrrPairs, crQuestions } from '../../db/schema/index.js';
import { loadSettings } from './settings.service.js';

/**
 * The one place that computes and writes case results (`cr_case_results`) and second-review pairs (`cr_irr_pairs`)
 * (DOMAIN.md 2.5; docs/chart-review.md "Reviews"). Everything is derived from the stored reviews, so every change
 * (a submit, a return, an adjudication) calls `recomputeCase` and the result is the same whatever the order:
 * - primary not submitted: no result; a pair waits (pending);
 * - primary submitted, no second review or the second not submitted: the primary's answers count;
 * - both submitted: the answers are compared key by key over the questions either reviewer saw; agreed: the
 *   primary's answers count; disagreed: the result is kept but does not count until adjudicated; adjudicated: the
 *   primary's answers with the adjudicated values count.
 * Hidden questions (their `show_if` false over the answers) count nowhere, as on the form.
 */

export interface QuestionForReview {
  id: number;
  key: string;
  show_if: string;
  weight: number;
  critical: boolean;
}

export type AnswersByKey = Readonly<Record<string, CrAnswerValue | null | undefined>>;

/**
 * The keys of the questions a reviewer sees for these answers: the shared rule (reviewQuestionStates, the one the
 * form and the progress use): a condition holds only when it is true (an unanswered question makes it unknown, so
 * not shown); a hidden question's answer does not feed the conditions after it.
 */
export function visibleKeys(questions: readonly QuestionForReview[], answers: AnswersByKey): Set<string> {
  const states = reviewQuestionStates(questions, answers);
  return new Set(questions.filter((_, index) => states[index] === 'shown').map((question) => question.key));
}

/** The value of every visible question (null: unanswered); hidden questions are left out. */
export function visibleAnswers(
  questions: readonly QuestionForReview[],
  answers: AnswersByKey,
): Record<string, CrAnswerValue | null> {
  const shown = visibleKeys(questions, answers);
  return Object.fromEntries(questions.filter((q) => shown.has(q.key)).map((q) => [q.key, answers[q.key] ?? null]));
}

export interface ComparedItem {
  key: string;
  /** The primary reviewer's value, null when the question was hidden or unanswered for them. */
  a: CrAnswerValue | null;
  b: CrAnswerValue | null;
  agreed: boolean;
}

/** Two reviews compared key by key over the questions either reviewer saw. */
export function compareReviews(
  questions: readonly QuestionForReview[],
  primary: AnswersByKey,
  second: AnswersByKey,
): ComparedItem[] {
  const a = visibleAnswers(questions, primary);
  const b = visibleAnswers(questions, second);
  return questions
    .filter((q) => q.key in a || q.key in b)
    .map((q) => {
      const va = a[q.key] ?? null;
      const vb = b[q.key] ?? null;
      return { key: q.key, a: va, b: vb, agreed: va === vb };
    });
}

/** The case's final answers: the primary's, with adjudicated values in place, over the questions then visible. */
export function finalAnswers(
  questions: readonly QuestionForReview[],
  primary: AnswersByKey,
  adjudicated: Readonly<Record<string, { value: CrAnswerValue }>> = {},
): Record<string, CrAnswerValue> {
  const merged: Record<string, CrAnswerValue | null | undefined> = { ...primary };
  for (const [key, final] of Object.entries(adjudicated)) merged[key] = final.value;
  const visible = visibleAnswers(questions, merged);
  return Object.fromEntries(
    Object.entries(visible).filter((entry): entry is [string, CrAnswerValue] => entry[1] !== null),
  );
}

// ------------------------------------------------------------------------------------------------ loading

type AssignmentRow = typeof crAssignments.$inferSelect;

/** The questions of a tool version by position, as the review engine reads them. */
export async function questionsOf(tx: DbOrTx, projectId: number, toolVersionId: number) {
  const rows = await tx
    .select()
    .from(crQuestions)
    .where(and(eq(crQuestions.projectId, projectId), eq(crQuestions.toolVersionId, toolVersionId)))
    .orderBy(asc(crQuestions.position), asc(crQuestions.id));
  return rows.map((row) => ({ ...row, show_if: row.showIf }));
}

/** Each assignment's answers by question key (given the questions of its version). */
export async function answersByKey(
  tx: DbOrTx,
  projectId: number,
  assignmentIds: readonly number[],
  questions: readonly { id: number; key: string }[],
): Promise<Map<number, Record<string, CrAnswerValue | null>>> {
  const keyOf = new Map(questions.map((q) => [q.id, q.key]));
  const out = new Map<number, Record<string, CrAnswerValue | null>>(assignmentIds.map((id) => [id, {}]));
  if (assignmentIds.length === 0) return out;
  const rows = await tx
    .select({ assignmentId: crAnswers.assignmentId, questionId: crAnswers.questionId, value: crAnswers.value })
    .from(crAnswers)
    .where(and(eq(crAnswers.projectId, projectId), inArray(crAnswers.assignmentId, [...assignmentIds])));
  for (const row of rows) {
    const key = keyOf.get(row.questionId);
    if (key !== undefined) out.get(row.assignmentId)![key] = row.value as CrAnswerValue | null;
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ writing

export interface RecomputeOutcome {
  /** A pair whose two reviews disagree and now waits for adjudication (it did not before). */
  disagreementWaits: number | null;
}

/**
 * Recomputes a case's result and its pair from the stored reviews (see the file comment). Call it inside the
 * transaction of every change to a review of the case; it locks the case's pair and result rows.
 */
export async function recomputeCase(
  tx: DbOrTx,
  projectId: number,
  caseId: number,
  now: Date,
): Promise<RecomputeOutcome> {
  const [kase] = await tx
    .select()
    .from(crCases)
    .where(and(eq(crCases.projectId, projectId), eq(crCases.id, caseId)));
  if (!kase) return { disagreementWaits: null };
  const assignments = await tx
    .select()
    .from(crAssignments)
    .where(and(eq(crAssignments.projectId, projectId), eq(crAssignments.caseId, caseId)));
  const primary = assignments.find((a) => a.role === 'primary');
  const second = assignments.find((a) => a.role === 'second');
  const [pair] = await tx
    .select()
    .from(crIrrPairs)
    .where(and(eq(crIrrPairs.projectId, projectId), eq(crIrrPairs.caseId, caseId)))
    .for('update');

  const removeResult = () =>
    tx.delete(crCaseResults).where(and(eq(crCaseResults.projectId, projectId), eq(crCaseResults.caseId, caseId)));

  if (!primary) {
    await removeResult();
    return { disagreementWaits: null };
  }
  const questions = await questionsOf(tx, projectId, primary.toolVersionId);
  const ids = [primary.id, ...(second ? [second.id] : [])];
  const answers = await answersByKey(tx, projectId, ids, questions);
  const primaryAnswers = answers.get(primary.id)!;
  const bothIn = primary.status === 'submitted' && second?.status === 'submitted';

  // The pair of a second review: compared when both are in, otherwise waiting (an adjudication made before a
  // return no longer holds).
  let pairStatus: 'pending' | 'agreed' | 'disagreed' | 'adjudicated' | null = null;
  let adjudicated: Record<string, { value: CrAnswerValue }> = {};
  let disagreementWaits: number | null = null;
  if (second) {
    const compared = bothIn ? compareReviews(questions, primaryAnswers, answers.get(second.id)!) : [];
    const agreedCount = compared.filter((item) => item.agreed).length;
    const keepAdjudication = bothIn && pair?.status === 'adjudicated';
    pairStatus = !bothIn
      ? 'pending'
      : keepAdjudication
        ? 'adjudicated'
        : agreedCount === compared.length
          ? 'agreed'
          : 'disagreed';
    if (keepAdjudication) adjudicated = (pair!.final ?? {}) as Record<string, { value: CrAnswerValue }>;
    const values = {
      primaryAssignmentId: primary.id,
      secondAssignmentId: second.id,
      status: pairStatus,
      itemsCompared: bothIn ? compared.length : null,
      itemsAgreed: bothIn ? agreedCount : null,
      ...(keepAdjudication ? {} : { final: null, adjudicatedAt: null, adjudicatedBy: null }),
    };
    if (pair) {
      await tx.update(crIrrPairs).set(values).where(eq(crIrrPairs.id, pair.id));
      if (pairStatus === 'disagreed' && pair.status !== 'disagreed') disagreementWaits = pair.id;
    } else if (primary.status === 'submitted' || second.status === 'submitted') {
      const [row] = await tx
        .insert(crIrrPairs)
        .values({ projectId, caseId, ...values, createdAt: now })
        .returning({ id: crIrrPairs.id });
      if (pairStatus === 'disagreed') disagreementWaits = row!.id;
    }
  }

  if (primary.status !== 'submitted') {
    await removeResult();
    return { disagreementWaits };
  }
  await writeResult(tx, {
    projectId,
    kase,
    primary,
    questions,
    answers: finalAnswers(questions, primaryAnswers, adjudicated),
    counts: pairStatus !== 'disagreed',
    now,
  });
  return { disagreementWaits };
}

async function writeResult(
  tx: DbOrTx,
  input: {
    projectId: number;
    kase: typeof crCases.$inferSelect;
    primary: AssignmentRow;
    questions: readonly QuestionForReview[];
    answers: Record<string, CrAnswerValue>;
    counts: boolean;
    now: Date;
  },
): Promise<void> {
  const settings = await loadSettings(tx, input.projectId);
  const score = scoreCase(input.questions, input.answers as Record<string, ScoredAnswer>, {
    partialEnabled: settings.partialEnabled,
  });
  const values = {
    projectId: input.projectId,
    programId: input.kase.programId,
    periodStart: input.kase.periodStart,
    unit: input.kase.unit,
    toolVersionId: input.primary.toolVersionId,
    score: score.score,
    applicable: score.applicable,
    met: score.met,
    allOrNone: score.allOrNone,
    answers: input.answers,
    counts: input.counts,
    computedAt: input.now,
  };
  await tx
    .insert(crCaseResults)
    .values({ caseId: input.kase.id, ...values })
    .onConflictDoUpdate({ target: crCaseResults.caseId, set: values });
}
