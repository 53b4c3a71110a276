import { type CrQuestionInput, crQuestionsInputSchema } from '@portal/shared';
import { ApiError } from '../../../lib/api';
import { numberOf } from './percent';
import { checkCondition, earlierKeys } from './show-if';

/**
 * The draft editor's questions: the contract's fields plus a `uid` that follows a question through moves, so its
 * field errors and focus stay with it (the server names questions by their index at the time of saving).
 */
export interface DraftQuestion extends Omit<CrQuestionInput, 'weight'> {
  uid: string;
  /** As typed: a NumberInput gives '' while empty. */
  weight: number | string;
}

export type QuestionField = keyof CrQuestionInput;
export const QUESTION_FIELDS = [
  'key',
  'section',
  'text',
  'help',
  'answer_type',
  'weight',
  'critical',
  'na_allowed',
  'na_reason_required',
  'show_if',
] as const satisfies readonly QuestionField[];

/** Messages per question (by uid) and field. */
export type QuestionErrors = Record<string, Partial<Record<QuestionField, string>>>;

let nextUid = 0;
const newUid = () => `q${++nextUid}`;

export function toDraft(questions: readonly CrQuestionInput[]): DraftQuestion[] {
  return questions.map((question) => ({
    uid: newUid(),
    key: question.key,
    section: question.section,
    text: question.text,
    help: question.help,
    answer_type: question.answer_type,
    weight: question.weight,
    critical: question.critical,
    na_allowed: question.na_allowed,
    na_reason_required: question.na_reason_required,
    show_if: question.show_if,
  }));
}

/** What is compared to tell unsaved changes: the fields that are sent, in order. */
export function draftSignature(questions: readonly DraftQuestion[]): string {
  return JSON.stringify(questions.map(({ uid: _uid, ...fields }) => fields));
}

/** What a new question starts with besides its key, section and text: Yes / No / N/A, weight 1, N/A allowed. */
export const NEW_QUESTION_DEFAULTS = {
  help: '',
  answer_type: 'yes_no_na',
  weight: 1,
  critical: false,
  na_allowed: true,
  na_reason_required: false,
  show_if: '',
} as const satisfies Partial<CrQuestionInput>;

/** A new question in `section`: Yes / No / N/A, weight 1, with a key no other question has. */
export function newQuestion(existing: readonly DraftQuestion[], section: string): DraftQuestion {
  const keys = new Set(existing.map((question) => question.key));
  let n = existing.length + 1;
  while (keys.has(`question_${n}`)) n++;
  return {
    uid: newUid(),
    key: `question_${n}`,
    section,
    text: '',
    ...NEW_QUESTION_DEFAULTS,
  };
}

/** Moves the question at `from` by `offset` (-1 up, +1 down); the list is returned unchanged at either end. */
export function moveQuestion<T>(questions: readonly T[], from: number, offset: -1 | 1): T[] {
  const to = from + offset;
  if (from < 0 || from >= questions.length || to < 0 || to >= questions.length) return [...questions];
  const next = [...questions];
  [next[from], next[to]] = [next[to] as T, next[from] as T];
  return next;
}

export interface SectionGroup<T> {
  section: string;
  /** Questions of the run with their index in the whole list. */
  items: { question: T; index: number }[];
}

/**
 * Runs of consecutive questions with the same section, in order: a reviewer meets the questions in this order, so a
 * section name used again further down starts a second group rather than pulling questions out of order.
 */
export function groupBySection<T extends { section: string }>(questions: readonly T[]): SectionGroup<T>[] {
  const groups: SectionGroup<T>[] = [];
  questions.forEach((question, index) => {
    const section = question.section.trim();
    const last = groups.at(-1);
    if (last && last.section === section) last.items.push({ question, index });
    else groups.push({ section, items: [{ question, index }] });
  });
  return groups;
}

export type DraftCheck = { questions: CrQuestionInput[] } | { errors: QuestionErrors; general: string | null };

function put(errors: QuestionErrors, uid: string, field: QuestionField, message: string) {
  const question = errors[uid] ?? {};
  question[field] ??= message;
  errors[uid] = question;
}

/**
 * The questions to send, or every problem at once, as the server would report them: the contract's field rules,
 * keys used twice, Partial answers while they are off, and conditions that do not parse over the earlier keys.
 */
export function checkDraft(questions: readonly DraftQuestion[], partialEnabled: boolean): DraftCheck {
  const errors: QuestionErrors = {};
  let general: string | null = null;
  const parsed = crQuestionsInputSchema.safeParse({
    questions: questions.map(({ uid: _uid, ...fields }) => ({ ...fields, weight: numberOf(fields.weight) })),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [, index, field] = issue.path;
      const uid = typeof index === 'number' ? questions[index]?.uid : undefined;
      if (uid && typeof field === 'string') put(errors, uid, field as QuestionField, issue.message);
      else general ??= issue.message;
    }
  }
  const seen = new Set<string>();
  questions.forEach((question, index) => {
    const key = question.key.trim();
    if (seen.has(key)) put(errors, question.uid, 'key', `Another question above already has the key "${key}".`);
    seen.add(key);
    if (question.answer_type === 'yes_partial_no_na' && !partialEnabled)
      put(errors, question.uid, 'answer_type', 'Partial answers are off in the chart review settings.');
    if (question.na_reason_required && !question.na_allowed)
      put(errors, question.uid, 'na_reason_required', 'Allow N/A before asking for its reason.');
    const condition = checkCondition(question.show_if, earlierKeys(questions, index));
    if (condition.error !== null) put(errors, question.uid, 'show_if', condition.error);
  });
  if (Object.keys(errors).length > 0 || general !== null || !parsed.success) return { errors, general };
  return { questions: parsed.data.questions };
}

/**
 * The server's field errors of a save (`questions.{index}.{field}`), attached to the questions as they were sent;
 * `general` is the message of anything that names no question field.
 */
export function serverQuestionErrors(
  error: unknown,
  sent: readonly DraftQuestion[],
): { errors: QuestionErrors; general: string | null } {
  const result: { errors: QuestionErrors; general: string | null } = { errors: {}, general: null };
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return result;
  const body = (error.body as { errors?: unknown } | null)?.errors;
  if (!body || typeof body !== 'object') return result;
  for (const [path, value] of Object.entries(body as Record<string, unknown>)) {
    const message = Array.isArray(value) ? value[0] : value;
    if (typeof message !== 'string') continue;
    const match = /^questions\.(\d+)\.(\w+)$/.exec(path);
    const uid = match ? sent[Number(match[1])]?.uid : undefined;
    const field = match?.[2] as QuestionField | undefined;
    if (uid && field && (QUESTION_FIELDS as readonly string[]).includes(field)) put(result.errors, uid, field, message);
    else result.general ??= message;
  }
  return result;
}
