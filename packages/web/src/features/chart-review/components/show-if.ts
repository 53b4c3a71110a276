import { COLUMN_KEY_PATTERN, conditionHolds, type ExpressionNode, parseExpression } from '@portal/shared';

/** An answer in the preview, as conditions read it: `icu_patient == 'yes'`. */
export type PreviewAnswer = 'yes' | 'no' | 'na' | 'partial';

interface Conditional {
  key: string;
  show_if: string;
}

/** The keys a question's condition may use: those of the questions before it (well-formed ones only). */
export function earlierKeys(questions: readonly { key: string }[], index: number): string[] {
  return questions
    .slice(0, index)
    .map((question) => question.key.trim())
    .filter((key) => COLUMN_KEY_PATTERN.test(key));
}

export type ConditionCheck = { ast: ExpressionNode | null; error: null } | { ast: null; error: string };

/**
 * Checks a "show if" condition the way the server does (a row expression over earlier questions' keys). An empty
 * condition means "always shown" (ast null).
 */
export function checkCondition(showIf: string, columns: readonly string[]): ConditionCheck {
  if (showIf.trim() === '') return { ast: null, error: null };
  const parsed = parseExpression(showIf.trim(), { columns, level: 'row' });
  if (parsed.ok) return { ast: parsed.ast, error: null };
  return { ast: null, error: parsed.errors[0]?.message ?? 'This condition cannot be read.' };
}

export type Visibility = 'shown' | 'hidden' | 'invalid';

/**
 * Which questions a reviewer sees for these answers, in order. A hidden question's answer does not count for the
 * conditions after it (the reviewer could not give it). A condition that does not parse is 'invalid': the editor
 * shows its error, the preview shows the question.
 */
export function questionVisibility(
  questions: readonly Conditional[],
  answers: Readonly<Record<string, PreviewAnswer>>,
): Visibility[] {
  const row: Record<string, PreviewAnswer> = {};
  return questions.map((question, index) => {
    const check = checkCondition(question.show_if, earlierKeys(questions, index));
    let visibility: Visibility;
    if (check.error !== null) visibility = 'invalid';
    else visibility = check.ast === null || conditionHolds(check.ast, row) ? 'shown' : 'hidden';
    const answer = answers[question.key];
    if (visibility !== 'hidden' && answer !== undefined) row[question.key] = answer;
    return visibility;
  });
}
