import type { ExpressionNode } from '../monitoring/expressions/ast.js';
import { evaluateRow, expressionColumns } from '../monitoring/expressions/evaluate.js';
import { parseExpression } from '../monitoring/expressions/parse.js';

/**
 * Which questions of a review a reviewer sees and must answer, and the progress of the review: one rule for the
 * review form, My reviews, the server's list and its submit check (docs/chart-review.md "Reviews").
 *
 * A question with a "show if" condition (a row expression over earlier questions' keys) is, for the answers so far:
 * - 'shown': no condition, or its condition is true. The reviewer sees it and must answer it;
 * - 'pending': its condition is unknown and reads a question still open (shown and unanswered, or itself pending):
 *   an answer still to come decides it. Not shown yet, but it may have to be answered, so it counts in the total;
 * - 'hidden': its condition is false, or unknown with every question it reads settled. It can no longer be asked.
 * A hidden question's answer feeds no condition (the reviewer could not give it). A condition that cannot be read
 * shows its question (the tool's editor refuses one before publishing).
 *
 * Progress = answered shown questions of (shown + pending) questions. So the total never grows while answering: a
 * conditional question counts from the start, and leaves the total only when an answer rules it out ('0 of 5', then
 * '4 of 4' when the condition turns false, or '5 of 5' when it turns true) instead of appearing late ('0 of 4' then
 * '5 of 5').
 */

export type ReviewQuestionState = 'shown' | 'pending' | 'hidden';

export interface ConditionalQuestion {
  key: string;
  show_if: string;
}

/** Answers by question key; null, undefined or '' is unanswered. */
export type ReviewAnswers = Readonly<Record<string, string | null | undefined>>;

export interface ReviewProgress {
  /** Shown questions with an answer. */
  answered: number;
  /** Questions to answer: shown ones and those an answer still to come may show. */
  total: number;
  /** Of the total, the questions not shown yet because an answer still to come decides them. */
  pending: number;
}

const conditions = new Map<string, { ast: ExpressionNode; reads: string[] } | null>();

/** The parsed condition (cached by its text and the keys it may use); null: always shown (or unreadable, shown). */
function conditionOf(showIf: string, columns: readonly string[]): { ast: ExpressionNode; reads: string[] } | null {
  const text = showIf.trim();
  if (text === '') return null;
  const cacheKey = `${columns.join(',')}\n${text}`;
  const cached = conditions.get(cacheKey);
  if (cached !== undefined) return cached;
  const parsed = parseExpression(text, { columns, level: 'row' });
  const condition = parsed.ok ? { ast: parsed.ast, reads: [...expressionColumns(parsed.ast)] } : null;
  if (conditions.size > 500) conditions.clear();
  conditions.set(cacheKey, condition);
  return condition;
}

/**
 * The language's own rule for a "show if" condition: it holds only when true; unknown (an unanswered question) does
 * not. The review form, its server and the tool editor's preview all ask this.
 */
export function conditionHolds(ast: ExpressionNode, row: Readonly<Record<string, string>>): boolean {
  const asCondition: ExpressionNode = {
    type: 'ConditionalExpression',
    test: ast,
    consequent: { type: 'Literal', value: true },
    alternate: { type: 'Literal', value: false },
  };
  return evaluateRow(asCondition, row) === true;
}

const unknown = (value: unknown) => value === null || value === undefined || Number.isNaN(value);

const answered = (value: string | null | undefined): value is string =>
  value !== null && value !== undefined && value !== '';

/** The state of each question, in order, for these answers (see above). */
export function reviewQuestionStates(
  questions: readonly ConditionalQuestion[],
  answers: ReviewAnswers,
): ReviewQuestionState[] {
  const row: Record<string, string> = {};
  const open = new Set<string>();
  const earlier: string[] = [];
  return questions.map((question) => {
    const condition = conditionOf(question.show_if, earlier);
    earlier.push(question.key);
    let state: ReviewQuestionState;
    if (condition === null) state = 'shown';
    else if (conditionHolds(condition.ast, row)) state = 'shown';
    else if (unknown(evaluateRow(condition.ast, row)) && condition.reads.some((key) => open.has(key)))
      state = 'pending';
    else state = 'hidden';
    const answer = answers[question.key];
    if (state === 'shown' && answered(answer)) row[question.key] = answer;
    else if (state !== 'hidden') open.add(question.key);
    return state;
  });
}

/** The progress of a review: answered shown questions of the questions to answer (shown and pending). */
export function reviewProgress(questions: readonly ConditionalQuestion[], answers: ReviewAnswers): ReviewProgress {
  const states = reviewQuestionStates(questions, answers);
  let done = 0;
  let total = 0;
  let pending = 0;
  states.forEach((state, index) => {
    if (state === 'hidden') return;
    total += 1;
    if (state === 'pending') pending += 1;
    else if (answered(answers[questions[index]!.key])) done += 1;
  });
  return { answered: done, total, pending };
}
