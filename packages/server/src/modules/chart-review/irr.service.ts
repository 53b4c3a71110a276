import {
  type Agreement,
  agreement,
  CR_RATER_CANNOT_ADJUDICATE,
  type CrAdjudicateInput,
  type CrAnswerValue,
  type CrIrrDisagreement,
  type CrIrrPair,
  type CrIrrPairSummary,
  type CrIrrProgram,
  type CrIrrQuestion,
  type CrPairStatus,
  meetsThresholds,
  reliabilityByQuestion,
} from '@portal/shared';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { loadProjectRow } from '../../db/project-row.js';
import { crAnswers, crAssignments, crCases, crIrrPairs, crPrograms, users } from '../../db/schema/index.js';
import { AppError, addFieldError, notFound } from '../../lib/errors.js';
import type { ChartReviewActor } from '../../policies/chart-review.js';
import {
  NOT_WAITING,
  nothingToAdjudicate,
  type PairFacts,
  pairRules,
  reviewedPair,
} from '../../policies/chart-review-records.js';
import { authorize, serialize } from '../../policies/rules.js';
import { answersByKey, type ComparedItem, compareReviews, questionsOf, recomputeCase } from './case-results.js';
import { PROGRAM_NOT_FOUND } from './programs.service.js';
import { chartReviewAudit, personOrNull } from './route-kit.js';
import { loadSettings } from './settings.service.js';

/**
 * Inter-rater reliability and adjudication (DOMAIN.md 2.1, 2.5; docs/chart-review.md "Reviews"): a programme's
 * second reviews with percent agreement, Cohen's kappa and PABAK per question (shared reliability engine), and the
 * side-by-side view of a pair's disagreements where someone who rated neither review picks the final answers.
 */

export const PAIR_NOT_FOUND = 'Second review not found.';
const CHOOSE_FINAL = 'Choose the final answer.';
const NOT_DISAGREEING = 'The two reviews agree on this question.';
const PARTIAL_NOT_ALLOWED = 'Partial is not an answer to this question.';
const NA_NOT_ALLOWED = 'N/A is not an answer to this question.';

const COMPLETED: CrPairStatus[] = ['agreed', 'disagreed', 'adjudicated'];
const primaries = alias(crAssignments, 'primary_assignment');
const primaryReviewers = alias(users, 'primary_reviewer');
const secondReviewers = alias(users, 'second_reviewer');

type Questions = Awaited<ReturnType<typeof questionsOf>>;

/** The number of answer categories of a question (Yes/No, + N/A, + Partial). */
const categoriesOf = (q: Questions[number]) =>
  2 + (q.naAllowed ? 1 : 0) + (q.answerType === 'yes_partial_no_na' ? 1 : 0);

/** Both reviews of each case compared (only where both are submitted), with the questions of their version. */
async function comparePairs(
  db: DbOrTx,
  projectId: number,
  pairs: readonly { primaryId: number; secondId: number; toolVersionId: number }[],
): Promise<{ compared: ComparedItem[][]; questions: Map<number, Questions> }> {
  const versions = [...new Set(pairs.map((p) => p.toolVersionId))];
  const questions = new Map(
    await Promise.all(versions.map(async (v) => [v, await questionsOf(db, projectId, v)] as const)),
  );
  const answers = await answersByKey(
    db,
    projectId,
    pairs.flatMap((p) => [p.primaryId, p.secondId]),
    [...questions.values()].flat(),
  );
  return {
    questions,
    compared: pairs.map((p) =>
      compareReviews(questions.get(p.toolVersionId)!, answers.get(p.primaryId)!, answers.get(p.secondId)!),
    ),
  };
}

/** GET /programs/{id}/irr?period: the programme's second reviews and their reliability per question. */
export async function getProgramIrr(
  db: DbOrTx,
  actor: ChartReviewActor,
  programId: number,
  period: string | undefined,
): Promise<CrIrrProgram> {
  const [program] = await db
    .select({ id: crPrograms.id, name: crPrograms.name })
    .from(crPrograms)
    .where(and(eq(crPrograms.projectId, actor.projectId), eq(crPrograms.id, programId)));
  if (!program) throw notFound(PROGRAM_NOT_FOUND);
  const settings = await loadSettings(db, actor.projectId);
  const base = and(
    eq(crAssignments.projectId, actor.projectId),
    eq(crAssignments.programId, programId),
    eq(crAssignments.role, 'second'),
  );
  const periods = await db
    .selectDistinct({ period: crCases.periodStart })
    .from(crAssignments)
    .innerJoin(crCases, and(eq(crCases.projectId, crAssignments.projectId), eq(crCases.id, crAssignments.caseId)))
    .where(base)
    .orderBy(desc(crCases.periodStart));
  const rows = await db
    .select({
      second: crAssignments,
      caseCode: crCases.caseCode,
      unit: crCases.unit,
      periodStart: crCases.periodStart,
      primaryId: primaries.id,
      primaryReviewerId: primaries.reviewerId,
      primaryName: nameOf(primaryReviewers),
      secondName: nameOf(secondReviewers),
      pair: crIrrPairs,
    })
    .from(crAssignments)
    .innerJoin(crCases, and(eq(crCases.projectId, crAssignments.projectId), eq(crCases.id, crAssignments.caseId)))
    .innerJoin(
      primaries,
      and(
        eq(primaries.projectId, crAssignments.projectId),
        eq(primaries.caseId, crAssignments.caseId),
        eq(primaries.role, 'primary'),
      ),
    )
    .leftJoin(primaryReviewers, eq(primaryReviewers.id, primaries.reviewerId))
    .leftJoin(secondReviewers, eq(secondReviewers.id, crAssignments.reviewerId))
    .leftJoin(
      crIrrPairs,
      and(eq(crIrrPairs.projectId, crAssignments.projectId), eq(crIrrPairs.caseId, crAssignments.caseId)),
    )
    .where(and(base, period === undefined ? undefined : eq(crCases.periodStart, period)))
    .orderBy(desc(crCases.periodStart), asc(crCases.caseCode));

  const pairs: CrIrrPairSummary[] = rows.map((row) => ({
    id: row.pair?.id ?? null,
    case_id: row.second.caseId,
    case_code: row.caseCode,
    unit: row.unit,
    period_start: row.periodStart,
    primary_reviewer: personOrNull(row.primaryReviewerId, row.primaryName),
    second_reviewer: personOrNull(row.second.reviewerId, row.secondName),
    status: (row.pair?.status ?? 'pending') as CrPairStatus,
    items_compared: row.pair?.itemsCompared ?? null,
    items_agreed: row.pair?.itemsAgreed ?? null,
  }));

  const completed = rows.filter((row) => row.pair && COMPLETED.includes(row.pair.status as CrPairStatus));
  const { questions: perQuestion, overall } = await pairsReliability(
    db,
    actor.projectId,
    completed.map((row) => ({
      primaryId: row.primaryId,
      secondId: row.second.id,
      toolVersionId: row.second.toolVersionId,
    })),
    settings,
  );
  return {
    program,
    period: period ?? null,
    periods: periods.map((p) => p.period),
    privilege_label: settings.privilegeLabel,
    thresholds: { kappa_min: settings.irrKappaMin, agreement_min: settings.irrAgreementMin },
    pairs,
    questions: perQuestion,
    overall: { ...overall, completed_pairs: completed.length },
  };
}

/**
 * The reliability of completed pairs (both reviews in): percent agreement, Cohen's kappa and PABAK per question key
 * and overall, on each question's own answer scale; a question is flagged under kappa 0.70 or below the project's
 * thresholds. The one computation behind the reliability screen and the programme dashboard.
 */
export async function pairsReliability(
  db: DbOrTx,
  projectId: number,
  completed: readonly { primaryId: number; secondId: number; toolVersionId: number }[],
  settings: { irrKappaMin: number; irrAgreementMin: number },
): Promise<{ questions: CrIrrQuestion[]; overall: Agreement & { meets: boolean } }> {
  const { compared, questions } = await comparePairs(db, projectId, completed);
  // The wording and answer scale of a key: from the newest version among the pairs.
  const byKey = new Map<string, Questions[number]>();
  for (const version of [...questions.keys()].sort((a, b) => a - b)) {
    for (const q of questions.get(version)!) byKey.set(q.key, q);
  }
  const thresholds = { kappaMin: settings.irrKappaMin, agreementMin: settings.irrAgreementMin };
  const items = compared.flat();
  const keys = [...byKey.keys()].filter((key) => items.some((item) => item.key === key));
  const perQuestion: CrIrrQuestion[] = keys.map((key) => {
    const question = byKey.get(key)!;
    const [r] = reliabilityByQuestion(
      items.filter((item) => item.key === key),
      { categories: categoriesOf(question), kappaMin: 0.7 },
    );
    return {
      key,
      text: question.text,
      n: r!.n,
      agreed: r!.agreed,
      percent: r!.percent,
      kappa: r!.kappa,
      pabak: r!.pabak,
      flagged: r!.flagged || (r!.n > 0 && !meetsThresholds(r!, thresholds)),
    };
  });
  const scale = Math.max(2, ...[...byKey.values()].map(categoriesOf));
  const overall = agreement(
    items.map((item) => [item.a, item.b] as const),
    { categories: scale },
  );
  return {
    questions: perQuestion,
    overall: { ...overall, meets: overall.n > 0 && meetsThresholds(overall, thresholds) },
  };
}

// ------------------------------------------------------------------------------------------------ one pair

async function loadPair(tx: DbOrTx, projectId: number, pairId: number, lock = false) {
  return loadProjectRow(tx, crIrrPairs, projectId, pairId, PAIR_NOT_FOUND, lock);
}

type PairRow = Awaited<ReturnType<typeof loadPair>>;

/** The two reviews of a pair, their questions, and (when both are in) the disagreeing items. */
async function pairDetail(tx: DbOrTx, projectId: number, pair: PairRow) {
  const assignments = await tx
    .select()
    .from(crAssignments)
    .where(
      and(
        eq(crAssignments.projectId, projectId),
        inArray(crAssignments.id, [pair.primaryAssignmentId, pair.secondAssignmentId]),
      ),
    );
  const primary = assignments.find((a) => a.id === pair.primaryAssignmentId)!;
  const second = assignments.find((a) => a.id === pair.secondAssignmentId)!;
  const questions = await questionsOf(tx, projectId, primary.toolVersionId);
  const bothIn = COMPLETED.includes(pair.status as CrPairStatus);
  const { compared } = bothIn
    ? await comparePairs(tx, projectId, [
        { primaryId: primary.id, secondId: second.id, toolVersionId: primary.toolVersionId },
      ])
    : { compared: [[]] };
  const disagreeing = compared[0]!.filter((item) => !item.agreed);
  return { primary, second, questions, disagreeing };
}

/** GET /irr/{pairId}: the disagreeing questions side by side (only once both reviews are in). */
export async function getPair(db: DbOrTx, actor: ChartReviewActor, pairId: number): Promise<CrIrrPair> {
  const pair = await loadPair(db, actor.projectId, pairId);
  const { primary, second, questions, disagreeing } = await pairDetail(db, actor.projectId, pair);
  const [kase] = await db
    .select()
    .from(crCases)
    .where(and(eq(crCases.projectId, actor.projectId), eq(crCases.id, pair.caseId)));
  const [program] = await db
    .select({ id: crPrograms.id, name: crPrograms.name })
    .from(crPrograms)
    .where(and(eq(crPrograms.projectId, actor.projectId), eq(crPrograms.id, primary.programId)));
  const people = await db
    .select({ id: users.id, name: nameOf(users) })
    .from(users)
    .where(
      inArray(users.id, [primary.reviewerId, second.reviewerId, ...(pair.adjudicatedBy ? [pair.adjudicatedBy] : [])]),
    );
  const nameFor = (id: number | null) =>
    id === null ? null : personOrNull(id, people.find((p) => p.id === id)?.name ?? null);
  const notes = await db
    .select()
    .from(crAnswers)
    .where(and(eq(crAnswers.projectId, actor.projectId), inArray(crAnswers.assignmentId, [primary.id, second.id])));
  const noteOf = (assignmentId: number, questionId: number) =>
    notes.find((n) => n.assignmentId === assignmentId && n.questionId === questionId)?.note ?? '';
  const settings = await loadSettings(db, actor.projectId);
  const final = (pair.final ?? {}) as Record<string, { value: CrAnswerValue; comment: string }>;
  const facts = pairFacts(pair, primary, second);
  return {
    id: pair.id,
    case_code: kase!.caseCode,
    unit: kase!.unit,
    period_start: kase!.periodStart,
    program: program!,
    privilege_label: settings.privilegeLabel,
    partial_enabled: settings.partialEnabled,
    status: pair.status as CrPairStatus,
    reviewer_a: nameFor(primary.reviewerId),
    reviewer_b: nameFor(second.reviewerId),
    items_compared: pair.itemsCompared,
    items_agreed: pair.itemsAgreed,
    disagreements: disagreeing.map((item): CrIrrDisagreement => {
      const q = questions.find((question) => question.key === item.key)!;
      return {
        key: item.key,
        text: q.text,
        help: q.help,
        answer_type: q.answerType,
        na_allowed: q.naAllowed,
        a: { value: item.a, note: item.a === null ? '' : noteOf(primary.id, q.id) },
        b: { value: item.b, note: item.b === null ? '' : noteOf(second.id, q.id) },
        final: final[item.key] ?? null,
      };
    }),
    adjudicated_by: nameFor(pair.adjudicatedBy),
    adjudicated_at: pair.adjudicatedAt?.toISOString() ?? null,
    abilities: serialize(pairRules, actor, facts, ['adjudicate']),
    adjudicate_blocked: reviewedPair(actor, facts) ? CR_RATER_CANNOT_ADJUDICATE : null,
  };
}

/** The facts the pair rule reads (policies/chart-review-records.ts): who reviewed the case, where the pair stands. */
const pairFacts = (
  pair: { projectId: number; status: string },
  primary: { reviewerId: number | null },
  second: { reviewerId: number | null },
): PairFacts => ({
  projectId: pair.projectId,
  reviewerIds: [primary.reviewerId, second.reviewerId].filter((id): id is number => id !== null),
  status: pair.status as CrPairStatus,
});

/**
 * POST /irr/{pairId}/adjudicate: a final value (and comment) for every disagreeing question, by someone who rated
 * neither review; the case's result is recomputed from the primary answers with these values and counts again.
 */
export async function adjudicatePair(
  db: Database,
  actor: ChartReviewActor,
  pairId: number,
  input: CrAdjudicateInput,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const pair = await loadPair(tx, actor.projectId, pairId, true);
    const { primary, second, questions, disagreeing } = await pairDetail(tx, actor.projectId, pair);
    const facts = pairFacts(pair, primary, second);
    if (nothingToAdjudicate(facts)) throw new AppError('CONFLICT', NOT_WAITING);
    authorize(pairRules, 'adjudicate', actor, facts);
    const settings = await loadSettings(tx, actor.projectId);
    const errors: Record<string, string[]> = {};
    const keys = new Set(disagreeing.map((item) => item.key));
    for (const key of Object.keys(input.final)) {
      if (!keys.has(key)) addFieldError(errors, `final.${key}`, NOT_DISAGREEING);
    }
    const final: Record<string, { value: CrAnswerValue; comment: string }> = {};
    for (const item of disagreeing) {
      const q = questions.find((question) => question.key === item.key)!;
      const chosen = input.final[item.key];
      const at = (message: string) => addFieldError(errors, `final.${item.key}`, message);
      if (!chosen?.value) at(CHOOSE_FINAL);
      else if (chosen.value === 'na' && !q.naAllowed) at(NA_NOT_ALLOWED);
      else if (chosen.value === 'partial' && !(q.answerType === 'yes_partial_no_na' && settings.partialEnabled)) {
        at(PARTIAL_NOT_ALLOWED);
      } else final[item.key] = { value: chosen.value, comment: chosen.comment };
    }
    const first = Object.values(errors).flat()[0];
    if (first) throw new AppError('VALIDATION_FAILED', first, errors);
    await tx
      .update(crIrrPairs)
      .set({ status: 'adjudicated', final, adjudicatedAt: now, adjudicatedBy: actor.userId })
      .where(eq(crIrrPairs.id, pair.id));
    await recomputeCase(tx, actor.projectId, pair.caseId, now);
    await chartReviewAudit(
      tx,
      actor,
      'review_adjudicated',
      { type: 'cr_irr_pair', id: pair.id },
      {
        case_id: pair.caseId,
        final,
      },
      now,
    );
  });
}
