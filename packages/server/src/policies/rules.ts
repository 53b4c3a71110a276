import { AppError, notFound } from '../lib/errors.js';

/**
 * Record rules (decision record 022): what a person may do to one record, written once per subject as
 * `allow(subject, rules)` and asked three ways:
 * - `can(rules, action, actor, record)`: whether they may (a list hides what they may not);
 * - `authorize(rules, action, actor, record)`: the service's assertion before it changes anything (403 with the
 *   rule's reason; 404 for a record of another project, which nobody outside it may learn exists);
 * - `serialize(rules, actor, record)`: the abilities a response carries, so the screen offers exactly what the
 *   server allows, and says why an action is not offered.
 * Every rule is asked "same project" first; a rule answers true, false (the subject's refusal), or the reason in words.
 */

interface Scoped {
  projectId: number;
}

/** A rule's answer: true, false, or why not (the sentence a person reads). */
export type Verdict = boolean | string;
export type Rule<A, R> = (actor: A, record: R) => Verdict;

export interface RecordRules<A extends Scoped, R extends Scoped, Action extends string> {
  /** The record's name in a 404 ("Finding" → "Finding not found."). */
  readonly subject: string;
  /** The refusal of a rule that answers false. */
  readonly refusal: string;
  readonly rules: { readonly [K in Action]: Rule<A, R> };
}

export function allow<A extends Scoped, R extends Scoped, Action extends string>(
  subject: string,
  refusal: string,
  rules: { readonly [K in Action]: Rule<A, R> },
): RecordRules<A, R, Action> {
  return { subject, refusal, rules };
}

/** null when allowed; otherwise 'elsewhere' (another project's record) or the reason. */
function refusalOf<A extends Scoped, R extends Scoped, Action extends string>(
  rules: RecordRules<A, R, Action>,
  action: Action,
  actor: A,
  record: R,
): string | null {
  if (actor.projectId !== record.projectId) return ELSEWHERE;
  const verdict = rules.rules[action](actor, record);
  if (verdict === true) return null;
  return verdict === false ? rules.refusal : verdict;
}
const ELSEWHERE = '\u0000elsewhere';

export function can<A extends Scoped, R extends Scoped, Action extends string>(
  rules: RecordRules<A, R, Action>,
  action: Action,
  actor: A,
  record: R,
): boolean {
  return refusalOf(rules, action, actor, record) === null;
}

/** Throws 404 for another project's record and 403 with the rule's reason when the actor may not. */
export function authorize<A extends Scoped, R extends Scoped, Action extends string>(
  rules: RecordRules<A, R, Action>,
  action: Action,
  actor: A,
  record: R,
): void {
  const refusal = refusalOf(rules, action, actor, record);
  if (refusal === null) return;
  if (refusal === ELSEWHERE) throw notFound(`${rules.subject} not found.`);
  throw new AppError('FORBIDDEN', refusal);
}

/** The abilities of `actions` (every action of the subject when omitted), as a response carries them. */
export function serialize<A extends Scoped, R extends Scoped, Action extends string, Picked extends Action = Action>(
  rules: RecordRules<A, R, Action>,
  actor: A,
  record: R,
  actions?: readonly Picked[],
): { [K in Picked]: boolean } {
  const names = actions ?? (Object.keys(rules.rules) as Picked[]);
  return Object.fromEntries(names.map((action) => [action, can(rules, action, actor, record)])) as {
    [K in Picked]: boolean;
  };
}
