import {
  type AuditChanges,
  CR_ANSWER_EVERY_QUESTION,
  CR_STALE_ANSWERS,
  type CrAnswerInput,
  type CrAnswersInput,
  type CrAnswersSaved,
  type CrAnswerValue,
  type CrAnswerWarning,
  type CrAssignmentStatus,
  type CrMyAssignment,
  type CrMyAssignments,
  type CrQuestion,
  type CrReviewForm,
  isAllowed,
  reviewProgress,
} from '@portal/shared';
import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { loadProjectRow } from '../../db/project-row.js';
import {
  crAnswers,
  crAssignments,
  crCases,
  crPrograms,
  crQuestions,
  crReviewerUnits,
  crToolVersions,
  users,
} from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, addFieldError, notFound } from '../../lib/errors.js';
import type { ChartReviewActor } from '../../policies/chart-review.js';
import {
  ALREADY_SUBMITTED,
  caseFacts,
  caseRules,
  ONLY_SUBMITTED_RETURNS,
  type ReviewFacts,
  reviewRules,
  reviewStepRules,
  SUBMITTED,
  SUBMITTED_NOT_REASSIGNED,
} from '../../policies/chart-review-records.js';
import { authorize, can, serialize } from '../../policies/rules.js';
import { rulesFor } from '../permissions/permissions.service.js';
import { type QuestionForReview, questionsOf, recomputeCase, visibleKeys } from './case-results.js';
import { chartReviewPeopleAmong } from './people.service.js';
import { chartReviewAudit } from './route-kit.js';
import { loadSettings } from './settings.service.js';

/**
 * Reviews (DOMAIN.md 2.3-2.5; docs/chart-review.md "Reviews"): a reviewer's assignments, the review form with its
 * autosave (a version number refuses stale saves) and submit, and the leads' return and reassign. A review is seen
 * by its reviewer and, read-only, by those with the programs section; never by the case's other reviewer (second
 * reviews are blind both ways). Results and second-review pairs are written by case-results.ts.
 */

type AssignmentRow = typeof crAssignments.$inferSelect;
type CaseRow = typeof crCases.$inferSelect;

export const REVIEW_NOT_FOUND = 'Review not found.';
const NOT_IN_REVIEW = 'This question is not part of this review.';
const PARTIAL_NOT_ALLOWED = 'Partial is not an answer to this question.';
const NA_NOT_ALLOWED = 'N/A is not an answer to this question.';
const ANSWER_IT = 'Answer this question.';
const NA_REASON_NEEDED = 'Give the reason for N/A.';
const SAME_REVIEWER = 'This person already reviews this case.';
const NOT_A_REVIEWER = 'Choose an active member whose chart review role may review charts.';
const OTHER_REVIEWER = 'This person does the other review of this case: choose someone else.';
const ownUnit = (unit: string) => `This person works on ${unit}, so may not review its cases.`;

/** The day of a moment (UTC), as due dates are stored. */
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** A bell notification, queued in the transaction of the change that causes it: a link, never case content. */
export interface ReviewNotice {
  userIds: number[];
  message: string;
  link: string;
}
export const reviewLink = (projectId: number, assignmentId: number) =>
  `/app/chart-review/${projectId}/review/${assignmentId}`;
export const pairLink = (projectId: number, pairId: number) => `/app/chart-review/${projectId}/irr/${pairId}`;

// ------------------------------------------------------------------------------------------------ patient data

const PATIENT_DATA: { pattern: RegExp; message: string }[] = [
  {
    pattern: /\b(mrn|medical record (number|no\.?)|record (number|no\.?))\s*[:#]?\s*\d{3,}|\b\d{7,12}\b/i,
    message: 'This looks like a medical record number. Leave patient identifiers out of the review.',
  },
  {
    pattern: /(\+?\b1[\s.-]?)?(\(\d{3}\)\s?|\b\d{3}[\s.-])\d{3}[\s.-]\d{4}\b/,
    message: 'This looks like a phone number. Leave patient identifiers out of the review.',
  },
  {
    pattern:
      /\b(dob|d\.o\.b\.?|date of birth|born on)\b|\b\d{1,2}[/.-]\d{1,2}[/.-](19|20)\d{2}\b|\b(19|20)\d{2}-\d{2}-\d{2}\b/i,
    message: 'This looks like a date of birth. Leave patient identifiers out of the review.',
  },
];

/** Warnings for free text that looks like patient data (saved anyway: the reviewer decides). */
export function patientDataWarnings(answer: CrAnswerInput): CrAnswerWarning[] {
  const warnings: CrAnswerWarning[] = [];
  for (const field of ['note', 'na_reason', 'evidence_location'] as const) {
    const found = PATIENT_DATA.find(({ pattern }) => pattern.test(answer[field]));
    if (found) warnings.push({ question_id: answer.question_id, field, message: found.message });
  }
  return warnings;
}

// ------------------------------------------------------------------------------------------------ access

async function loadAssignment(tx: DbOrTx, projectId: number, assignmentId: number, lock = false) {
  return loadProjectRow(tx, crAssignments, projectId, assignmentId, REVIEW_NOT_FOUND, lock);
}

/** The case's other review, if any. */
async function otherAssignment(tx: DbOrTx, row: AssignmentRow): Promise<AssignmentRow | undefined> {
  const [other] = await tx
    .select()
    .from(crAssignments)
    .where(
      and(
        eq(crAssignments.projectId, row.projectId),
        eq(crAssignments.caseId, row.caseId),
        ne(crAssignments.id, row.id),
      ),
    );
  return other;
}

/** The facts the review rules read (policies/chart-review-records.ts): its reviewer and the case's other one. */
async function reviewFacts(tx: DbOrTx, row: AssignmentRow): Promise<ReviewFacts> {
  const other = row.reviewerId === null ? undefined : await otherAssignment(tx, row);
  return { projectId: row.projectId, reviewerId: row.reviewerId, otherReviewerId: other?.reviewerId ?? null };
}

/**
 * Whether the actor may look at a review (404 otherwise, as if it did not exist); whether it is their own; its facts
 * for the review rules.
 */
async function checkSees(
  tx: DbOrTx,
  actor: ChartReviewActor,
  row: AssignmentRow,
): Promise<{ mine: boolean; review: ReviewFacts }> {
  const review = await reviewFacts(tx, row);
  if (!can(reviewRules, 'see', actor, review)) throw notFound(REVIEW_NOT_FOUND);
  return { mine: can(reviewRules, 'change', actor, review), review };
}

/** Only the reviewer changes a review: leads who may see it get 403, others 404. */
async function checkReviewer(tx: DbOrTx, actor: ChartReviewActor, row: AssignmentRow): Promise<void> {
  const { review } = await checkSees(tx, actor, row);
  authorize(reviewRules, 'change', actor, review);
}

async function loadCase(tx: DbOrTx, projectId: number, caseId: number): Promise<CaseRow> {
  const [row] = await tx
    .select()
    .from(crCases)
    .where(and(eq(crCases.projectId, projectId), eq(crCases.id, caseId)));
  if (!row) throw notFound(REVIEW_NOT_FOUND);
  return row;
}

// ------------------------------------------------------------------------------------------------ my assignments

/** GET /me/assignments: the actor's reviews across programmes, overdue first, then by due date and case code. */
export async function listMyAssignments(
  db: DbOrTx,
  actor: ChartReviewActor,
  query: { status?: 'todo' | 'submitted'; program?: number },
  now: Date,
): Promise<CrMyAssignments> {
  const where: (SQL | undefined)[] = [
    eq(crAssignments.projectId, actor.projectId),
    eq(crAssignments.reviewerId, actor.userId),
    query.program === undefined ? undefined : eq(crAssignments.programId, query.program),
    query.status === 'submitted'
      ? eq(crAssignments.status, 'submitted')
      : query.status === 'todo'
        ? ne(crAssignments.status, 'submitted')
        : undefined,
  ];
  const rows = await db
    .select({
      assignment: crAssignments,
      caseCode: crCases.caseCode,
      unit: crCases.unit,
      period: crCases.periodStart,
      programName: crPrograms.name,
      // The questions of the review's version with its answers, for the progress (one statement for the list).
      form: sql<(QuestionForReview & { answered: boolean; value: CrAnswerValue | null })[]>`(select
        coalesce(json_agg(json_build_object('id', q.id, 'key', q.key, 'show_if', q.show_if, 'weight', q.weight,
          'critical', q.critical, 'answered', a.question_id is not null, 'value', a.value) order by q.position, q.id),
          '[]')
        from ${crQuestions} q left join ${crAnswers} a on a.project_id = q.project_id
          and a.assignment_id = ${crAssignments.id} and a.question_id = q.id
        where q.project_id = ${actor.projectId} and q.tool_version_id = ${crAssignments.toolVersionId})`,
    })
    .from(crAssignments)
    .innerJoin(crCases, and(eq(crCases.projectId, crAssignments.projectId), eq(crCases.id, crAssignments.caseId)))
    .innerJoin(
      crPrograms,
      and(eq(crPrograms.projectId, crAssignments.projectId), eq(crPrograms.id, crAssignments.programId)),
    )
    .where(and(...where));
  const today = dayOf(now);
  const list: CrMyAssignment[] = rows.map(({ assignment, caseCode, unit, period, programName, form }) => {
    const answers = Object.fromEntries(form.filter((q) => q.answered).map((q) => [q.key, q.value]));
    // The shared rule, as the review form counts: answered shown questions of those to answer (a conditional
    // question counts until an answer rules it out), so the total does not grow while the reviewer answers.
    const { answered, total } = reviewProgress(form, answers);
    const status = assignment.status as CrAssignmentStatus;
    return {
      id: assignment.id,
      case_code: caseCode,
      program: { id: assignment.programId, name: programName },
      unit,
      period_start: period,
      due_at: assignment.dueAt,
      overdue: status !== 'submitted' && assignment.dueAt < today,
      status,
      role: assignment.role as CrMyAssignment['role'],
      return_reason: status === 'returned' ? assignment.returnReason : null,
      progress: { answered, total },
    };
  });
  list.sort(
    (a, b) =>
      Number(a.status === 'submitted') - Number(b.status === 'submitted') ||
      Number(b.overdue) - Number(a.overdue) ||
      a.due_at.localeCompare(b.due_at) ||
      a.case_code.localeCompare(b.case_code),
  );
  return { assignments: list };
}

// ------------------------------------------------------------------------------------------------ the form

/** GET /assignments/{id}: the form with the review's own answers only (never the other reviewer's). */
export async function getReviewForm(
  db: DbOrTx,
  actor: ChartReviewActor,
  assignmentId: number,
  now: Date,
): Promise<CrReviewForm> {
  const row = await loadAssignment(db, actor.projectId, assignmentId);
  const { mine, review } = await checkSees(db, actor, row);
  const kase = await loadCase(db, actor.projectId, row.caseId);
  const settings = await loadSettings(db, actor.projectId);
  const [program] = await db
    .select({ name: crPrograms.name })
    .from(crPrograms)
    .where(and(eq(crPrograms.projectId, actor.projectId), eq(crPrograms.id, row.programId)));
  const [reviewer] = await db
    .select({ name: nameOf(users) })
    .from(users)
    .where(eq(users.id, row.reviewerId));
  const questions = await questionsOf(db, actor.projectId, row.toolVersionId);
  const answers = await db
    .select()
    .from(crAnswers)
    .where(and(eq(crAnswers.projectId, actor.projectId), eq(crAnswers.assignmentId, row.id)));
  const status = row.status as CrAssignmentStatus;
  const open = status !== 'submitted';
  const hasRef = kase.encounterRefEnc !== null;
  return {
    id: row.id,
    case: {
      case_id: kase.id,
      case_code: kase.caseCode,
      unit: kase.unit,
      discharge_month: kase.dischargeMonth,
      has_encounter_ref: hasRef,
      may_reveal: hasRef && can(caseRules, 'reveal', actor, caseFacts(kase, settings)),
    },
    program: { id: row.programId, name: program?.name ?? '' },
    period_start: kase.periodStart,
    privilege_label: settings.privilegeLabel,
    partial_enabled: settings.partialEnabled,
    questions: questions.map(
      (q): CrQuestion => ({
        id: q.id,
        position: q.position,
        key: q.key,
        section: q.section,
        text: q.text,
        help: q.help,
        answer_type: q.answerType as CrQuestion['answer_type'],
        weight: q.weight,
        critical: q.critical,
        na_allowed: q.naAllowed,
        na_reason_required: q.naReasonRequired,
        show_if: q.showIf,
      }),
    ),
    answers: answers.map((a) => ({
      question_id: a.questionId,
      value: a.value as CrAnswerValue | null,
      na_reason: a.naReason,
      note: a.note,
      evidence_location: a.evidenceLocation,
      updated_at: a.updatedAt.toISOString(),
    })),
    version: row.version,
    status,
    reviewer: { id: row.reviewerId, name: reviewer?.name ?? '' },
    mine,
    due_at: row.dueAt,
    overdue: open && row.dueAt < dayOf(now),
    submitted_at: row.submittedAt?.toISOString() ?? null,
    return_reason: row.returnReason,
    abilities: serialize(reviewStepRules, actor, { ...review, status }),
  };
}

/** Refuses answers that do not fit their question (all at once, by position in the request). */
function checkAnswers(
  input: CrAnswersInput,
  questions: Awaited<ReturnType<typeof questionsOf>>,
  partialEnabled: boolean,
): void {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const errors: Record<string, string[]> = {};
  input.answers.forEach((answer, i) => {
    const question = byId.get(answer.question_id);
    if (!question) {
      addFieldError(errors, `answers.${i}.question_id`, NOT_IN_REVIEW);
      return;
    }
    if (answer.value === 'partial' && !(question.answerType === 'yes_partial_no_na' && partialEnabled)) {
      addFieldError(errors, `answers.${i}.value`, PARTIAL_NOT_ALLOWED);
    }
    if (answer.value === 'na' && !question.naAllowed) addFieldError(errors, `answers.${i}.value`, NA_NOT_ALLOWED);
  });
  const first = Object.values(errors).flat()[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, errors);
}

/**
 * PUT /assignments/{id}/answers: the changed answers (upserted). A stale `version` answers 409. The first answer
 * freezes the tool version and starts the review (audited once); free text that looks like patient data is saved
 * with a warning.
 */
export async function saveAnswers(
  db: Database,
  actor: ChartReviewActor,
  assignmentId: number,
  input: CrAnswersInput,
  now: Date,
): Promise<CrAnswersSaved> {
  return db.transaction(async (tx) => {
    const row = await loadAssignment(tx, actor.projectId, assignmentId, true);
    await checkReviewer(tx, actor, row);
    if (row.status === 'submitted') throw new AppError('CONFLICT', SUBMITTED);
    if (input.version !== row.version) throw new AppError('CONFLICT', CR_STALE_ANSWERS);
    const questions = await questionsOf(tx, actor.projectId, row.toolVersionId);
    const settings = await loadSettings(tx, actor.projectId);
    checkAnswers(input, questions, settings.partialEnabled);
    const answered = await answerChanges(tx, actor.projectId, row.id, input, questions);
    for (const answer of input.answers) {
      const values = {
        value: answer.value,
        naReason: answer.na_reason,
        note: answer.note,
        evidenceLocation: answer.evidence_location,
        updatedAt: now,
      };
      await tx
        .insert(crAnswers)
        .values({ projectId: actor.projectId, assignmentId: row.id, questionId: answer.question_id, ...values })
        .onConflictDoUpdate({ target: [crAnswers.assignmentId, crAnswers.questionId], set: values });
    }
    let status = row.status as CrAssignmentStatus;
    if (input.answers.length > 0) {
      await freezeVersion(tx, actor.projectId, row.toolVersionId, now);
      if (status === 'assigned') {
        status = 'in_progress';
        await chartReviewAudit(
          tx,
          actor,
          'review_started',
          { type: 'cr_assignment', id: row.id },
          {
            case_id: row.caseId,
            changes: answered,
          },
          now,
        );
      } else if (Object.keys(answered).length > 0) {
        // Every later save that changes an answer: one event, with the answers it changed.
        await chartReviewAudit(
          tx,
          actor,
          'answers_saved',
          { type: 'cr_assignment', id: row.id },
          { case_id: row.caseId, version: row.version + 1, changes: answered },
          now,
        );
      }
    }
    const version = row.version + 1;
    await tx
      .update(crAssignments)
      .set({
        version,
        status,
        ...(status !== row.status ? { startedAt: now } : {}),
        updatedAt: now,
      })
      .where(eq(crAssignments.id, row.id));
    return { version, status, warnings: input.answers.flatMap(patientDataWarnings) };
  });
}

/**
 * The answers a save changes, for its audit event: `<question key>` for the answer itself, `<question key>.note`,
 * `.na_reason` and `.evidence_location` for its free text (shortened to 200 characters). Free text that looks like
 * patient data is named only (`{ changed: true }`): the audit log keeps no patient data.
 */
async function answerChanges(
  tx: DbOrTx,
  projectId: number,
  assignmentId: number,
  input: CrAnswersInput,
  questions: Awaited<ReturnType<typeof questionsOf>>,
): Promise<AuditChanges> {
  if (input.answers.length === 0) return {};
  const keyOf = new Map(questions.map((q) => [q.id, q.key]));
  const saved = new Map(
    (
      await tx
        .select()
        .from(crAnswers)
        .where(and(eq(crAnswers.projectId, projectId), eq(crAnswers.assignmentId, assignmentId)))
    ).map((answer) => [answer.questionId, answer]),
  );
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const secret: string[] = [];
  for (const answer of input.answers) {
    const key = keyOf.get(answer.question_id) ?? `question_${answer.question_id}`;
    const old = saved.get(answer.question_id);
    before[key] = old?.value ?? null;
    after[key] = answer.value;
    for (const [field, was] of [
      ['na_reason', old?.naReason],
      ['note', old?.note],
      ['evidence_location', old?.evidenceLocation],
    ] as const) {
      before[`${key}.${field}`] = was ?? '';
      after[`${key}.${field}`] = answer[field];
    }
    for (const warning of patientDataWarnings(answer)) secret.push(`${key}.${warning.field}`);
    if (old) {
      const earlier = patientDataWarnings({
        question_id: answer.question_id,
        value: null,
        na_reason: old.naReason,
        note: old.note,
        evidence_location: old.evidenceLocation,
      });
      for (const warning of earlier) secret.push(`${key}.${warning.field}`);
    }
  }
  return changes(before, after, { secret });
}

/** An answer refers to the version from now on: it never changes again. */
async function freezeVersion(tx: DbOrTx, projectId: number, toolVersionId: number, now: Date): Promise<void> {
  await tx
    .update(crToolVersions)
    .set({ frozenAt: now })
    .where(
      and(
        eq(crToolVersions.projectId, projectId),
        eq(crToolVersions.id, toolVersionId),
        isNull(crToolVersions.frozenAt),
      ),
    );
}

/**
 * POST /assignments/{id}/submit: every visible question answered (a reason with N/A where required), else 400 with
 * `answers.<question_id>`. Then the case's result and pair are recomputed; a disagreement that now waits notifies
 * the programme's owner.
 */
export async function submitReview(
  db: Database,
  actor: ChartReviewActor,
  assignmentId: number,
  now: Date,
): Promise<{ notices: ReviewNotice[] }> {
  return db.transaction(async (tx) => {
    const row = await loadAssignment(tx, actor.projectId, assignmentId, true);
    await checkReviewer(tx, actor, row);
    if (row.status === 'submitted') throw new AppError('CONFLICT', ALREADY_SUBMITTED);
    const questions = await questionsOf(tx, actor.projectId, row.toolVersionId);
    const settings = await loadSettings(tx, actor.projectId);
    const answers = await tx
      .select()
      .from(crAnswers)
      .where(and(eq(crAnswers.projectId, actor.projectId), eq(crAnswers.assignmentId, row.id)));
    const byQuestion = new Map(answers.map((a) => [a.questionId, a]));
    const values = Object.fromEntries(
      questions.map((q) => [q.key, (byQuestion.get(q.id)?.value ?? null) as CrAnswerValue | null]),
    );
    const shown = visibleKeys(questions, values);
    const errors: Record<string, string[]> = {};
    for (const question of questions) {
      if (!shown.has(question.key)) continue;
      const answer = byQuestion.get(question.id);
      const at = (message: string) => addFieldError(errors, `answers.${question.id}`, message);
      if (!answer?.value) at(ANSWER_IT);
      else if (answer.value === 'na' && !question.naAllowed) at(NA_NOT_ALLOWED);
      else if (answer.value === 'na' && question.naReasonRequired && answer.naReason.trim() === '') {
        at(NA_REASON_NEEDED);
      } else if (
        answer.value === 'partial' &&
        !(question.answerType === 'yes_partial_no_na' && settings.partialEnabled)
      ) {
        at(PARTIAL_NOT_ALLOWED);
      }
    }
    if (Object.keys(errors).length > 0) throw new AppError('VALIDATION_FAILED', CR_ANSWER_EVERY_QUESTION, errors);
    await freezeVersion(tx, actor.projectId, row.toolVersionId, now);
    await tx
      .update(crAssignments)
      .set({
        status: 'submitted',
        submittedAt: now,
        startedAt: row.startedAt ?? now,
        version: row.version + 1,
        updatedAt: now,
      })
      .where(eq(crAssignments.id, row.id));
    const outcome = await recomputeCase(tx, actor.projectId, row.caseId, now);
    await chartReviewAudit(
      tx,
      actor,
      'review_submitted',
      { type: 'cr_assignment', id: row.id },
      {
        case_id: row.caseId,
        role: row.role,
      },
      now,
    );
    const notices: ReviewNotice[] = [];
    if (outcome.disagreementWaits !== null) {
      const [program] = await tx
        .select({ ownerId: crPrograms.ownerId })
        .from(crPrograms)
        .where(and(eq(crPrograms.projectId, actor.projectId), eq(crPrograms.id, row.programId)));
      if (program?.ownerId) {
        notices.push({
          userIds: [program.ownerId],
          message: 'Two reviews of a chart review case disagree and wait for adjudication.',
          link: pairLink(actor.projectId, outcome.disagreementWaits),
        });
      }
    }
    return { notices };
  });
}

/**
 * POST /assignments/{id}/return: a submitted review goes back to its reviewer with a reason (answers kept); its
 * result stops counting (recomputed) and its pair waits again.
 */
export async function returnReview(
  db: Database,
  actor: ChartReviewActor,
  assignmentId: number,
  reason: string,
  now: Date,
): Promise<{ notices: ReviewNotice[] }> {
  return db.transaction(async (tx) => {
    const row = await loadAssignment(tx, actor.projectId, assignmentId, true);
    await checkSees(tx, actor, row);
    if (row.status !== 'submitted') throw new AppError('CONFLICT', ONLY_SUBMITTED_RETURNS);
    await tx
      .update(crAssignments)
      .set({
        status: 'returned',
        returnReason: reason,
        returnedAt: now,
        returnedBy: actor.userId,
        submittedAt: null,
        version: row.version + 1,
        updatedAt: now,
      })
      .where(eq(crAssignments.id, row.id));
    await recomputeCase(tx, actor.projectId, row.caseId, now);
    await chartReviewAudit(
      tx,
      actor,
      'review_returned',
      { type: 'cr_assignment', id: row.id },
      {
        case_id: row.caseId,
        reason,
      },
      now,
    );
    return {
      notices: [
        {
          userIds: [row.reviewerId],
          message: 'A chart review was returned to you. Open it to see why.',
          link: reviewLink(actor.projectId, row.id),
        },
      ],
    };
  });
}

/** Whether a user is an active member of the project whose chart review role may use the review section. */
async function mayReview(tx: DbOrTx, projectId: number, userId: number): Promise<boolean> {
  const [member] = await chartReviewPeopleAmong(tx, projectId, [userId]);
  if (!member) return false;
  return isAllowed(await rulesFor(tx, projectId, 'chart_review'), 'review', member.role);
}

/**
 * POST /assignments/{id}/reassign: before submission, to an active member who may review, who is not the case's
 * other reviewer and (with the conflict-of-interest rule) does not work on the case's unit. The new reviewer starts
 * afresh: the answers saved so far are removed.
 */
export async function reassignReview(
  db: Database,
  actor: ChartReviewActor,
  assignmentId: number,
  reviewerId: number,
  now: Date,
): Promise<{ notices: ReviewNotice[] }> {
  return db.transaction(async (tx) => {
    const row = await loadAssignment(tx, actor.projectId, assignmentId, true);
    await checkSees(tx, actor, row);
    if (row.status === 'submitted') throw new AppError('CONFLICT', SUBMITTED_NOT_REASSIGNED);
    const refuse = (message: string) => {
      throw new AppError('VALIDATION_FAILED', message, { reviewer_id: [message] });
    };
    if (reviewerId === row.reviewerId) refuse(SAME_REVIEWER);
    if (!(await mayReview(tx, actor.projectId, reviewerId))) refuse(NOT_A_REVIEWER);
    const other = await otherAssignment(tx, row);
    if (other?.reviewerId === reviewerId) refuse(OTHER_REVIEWER);
    const kase = await loadCase(tx, actor.projectId, row.caseId);
    const settings = await loadSettings(tx, actor.projectId);
    if (settings.coiOwnUnit && kase.unit !== null) {
      const [own] = await tx
        .select({ unit: crReviewerUnits.unit })
        .from(crReviewerUnits)
        .where(
          and(
            eq(crReviewerUnits.projectId, actor.projectId),
            eq(crReviewerUnits.userId, reviewerId),
            eq(crReviewerUnits.unit, kase.unit),
          ),
        );
      if (own) refuse(ownUnit(kase.unit));
    }
    const cleared = await tx
      .delete(crAnswers)
      .where(and(eq(crAnswers.projectId, actor.projectId), eq(crAnswers.assignmentId, row.id)))
      .returning({ questionId: crAnswers.questionId });
    await tx
      .update(crAssignments)
      .set({
        reviewerId,
        status: 'assigned',
        startedAt: null,
        returnReason: null,
        returnedAt: null,
        returnedBy: null,
        version: row.version + 1,
        updatedAt: now,
      })
      .where(eq(crAssignments.id, row.id));
    await chartReviewAudit(
      tx,
      actor,
      'review_reassigned',
      { type: 'cr_assignment', id: row.id },
      {
        case_id: row.caseId,
        from: row.reviewerId,
        to: reviewerId,
        answers_cleared: cleared.length,
      },
      now,
    );
    return {
      notices: [
        {
          userIds: [reviewerId],
          message: 'A chart review was assigned to you.',
          link: reviewLink(actor.projectId, row.id),
        },
      ],
    };
  });
}
