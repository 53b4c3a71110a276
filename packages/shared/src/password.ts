/**
 * Password rules of SPEC section 5 and the strength score of section 4, shared by the server and the web.
 *
 * The checks that need no word list (length, character classes, sequences, repeats) always run. The "no common
 * passwords or words" check and the zxcvbn score need the zxcvbn-ts dictionaries, which are loaded lazily by
 * `loadPasswordDictionaries` (the server awaits it at start-up, the web in its password-strength worker); until then
 * `evaluatePassword` reports `dictionaryChecked: false`. docs/decisions/018-fair-password-rules.md explains the rules.
 */
import type { ZxcvbnResult } from '@zxcvbn-ts/core';
import { loadedWordIndex, loadedZxcvbn } from './password/dictionaries.js';
import { hasSequence, hasTripleRepeat } from './password/sequences.js';
import { COMMON_WORD_MIN_LENGTH, type CommonWordMatch, findCommonWord } from './password/words.js';

/** The test corpus of the rules (guessable passwords, seeded random ones), shared by the shared and web tests. */
export * as passwordCorpus from './password/corpus.js';
export { loadPasswordDictionaries } from './password/dictionaries.js';
export type { CommonWordKind, CommonWordMatch } from './password/words.js';

export const PASSWORD_MIN_LENGTH = 12;
/** A password is valid when every requirement is met and its score is at least this. */
export const PASSWORD_MIN_SCORE = 3;
/** Each of these lengths adds 1 to the score of a password that meets every requirement. */
export const PASSWORD_BONUS_LENGTHS = [16, 20] as const;
/** Shortest word (in characters) that counts as a common word. */
export const PASSWORD_COMMON_WORD_MIN_LENGTH = COMMON_WORD_MIN_LENGTH;

export const PASSWORD_STRENGTH_LABELS = ['Very Weak', 'Weak', 'Fair', 'Strong', 'Very Strong'] as const;
export type PasswordStrengthLabel = (typeof PASSWORD_STRENGTH_LABELS)[number];
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

/** Requirement keys, in the order of `requirements` and `problems`. */
export const PASSWORD_REQUIREMENT_KEYS = [
  'length',
  'uppercase',
  'lowercase',
  'digit',
  'special',
  'noCommon',
  'noSequence',
  'noRepeat',
] as const;
export type PasswordRequirementKey = (typeof PASSWORD_REQUIREMENT_KEYS)[number];

/** Short texts for a requirement checklist. */
export const PASSWORD_REQUIREMENT_LABELS: Readonly<Record<PasswordRequirementKey, string>> = {
  length: `At least ${PASSWORD_MIN_LENGTH} characters`,
  uppercase: 'An uppercase letter',
  lowercase: 'A lowercase letter',
  digit: 'A digit',
  special: 'A special character',
  noCommon: 'No common words or patterns',
  noSequence: 'No sequences or keyboard patterns',
  noRepeat: 'No character repeated three times in a row',
};

/** Message of each unmet requirement (SPEC wording), plus `tooWeak` for a low score with every requirement met. */
export const PASSWORD_MESSAGES = {
  length: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  uppercase: 'Password must contain an uppercase letter',
  lowercase: 'Password must contain a lowercase letter',
  digit: 'Password must contain a digit',
  special: 'Password must contain a special character',
  noCommon: 'Password contains common words or patterns. Please choose a more unique password',
  noSequence: 'Avoid sequential characters or keyboard patterns',
  noRepeat: 'Avoid repeating the same character multiple times in a row',
  tooWeak: 'Password is too weak. Add more words or characters to make it stronger.',
} as const satisfies Record<PasswordRequirementKey | 'tooWeak', string>;

export interface PasswordRequirement {
  key: PasswordRequirementKey;
  label: string;
  met: boolean;
}

export interface PasswordEvaluation {
  /** Every requirement met and `score >= PASSWORD_MIN_SCORE`. */
  valid: boolean;
  score: PasswordScore;
  label: PasswordStrengthLabel;
  /** Messages of the unmet requirements, in `PASSWORD_REQUIREMENT_KEYS` order. */
  problems: string[];
  requirements: PasswordRequirement[];
  /**
   * Whether the zxcvbn dictionaries were loaded. When false, the score comes from length and character classes alone
   * and the `noCommon` requirement is reported as met because it could not be checked.
   */
  dictionaryChecked: boolean;
}

export interface PasswordEvaluationOptions {
  /** Words the password should not contain, such as the user's email, name or username (4 characters or more). */
  userInputs?: string[];
}

/**
 * The first thing a guesser tries that `password` contains, found by password/words.ts: a common word or password as
 * people write it, l33t, reversed or within two edits, a passphrase of short common words, or one of the user's own
 * words. Undefined when there is none or while the dictionaries are not loaded.
 */
export function findCommonPattern(
  password: string,
  options: PasswordEvaluationOptions = {},
): CommonWordMatch | undefined {
  const index = loadedWordIndex();
  return index ? findCommonWord(password, index, options.userInputs ?? []) : undefined;
}

function hasWordSequence(result: ZxcvbnResult): boolean {
  return result.sequence.some((match) => match.pattern === 'wordSequence');
}

function ruleScore(length: number, characterClasses: number): number {
  return Number(length >= 8) + Number(length >= PASSWORD_MIN_LENGTH) + Number(characterClasses >= 3);
}

/**
 * Evaluates a password against the SPEC rules: the one function behind the server's `passwordProblems`, the zod
 * schemas and the web's strength meter. Synchronous: uses the dictionaries if `loadPasswordDictionaries` has
 * completed. Its worst case for 1,024 characters (the longest the schemas accept) is a few tens of milliseconds
 * (decision 018; bench/password-check.ts).
 *
 * Requirements: SPEC section 5; `noCommon` is password/words.ts or a zxcvbn word sequence ('onetwothree'),
 * `noSequence` and `noRepeat` are password/sequences.ts.
 *
 * Score (0-4):
 *   base  = zxcvbn score (of the first 32 characters) when the dictionaries are loaded, else ruleScore (length 8+,
 *           length 12+, 3+ classes; max 3)
 *   if any requirement is unmet:        score = min(base, 2)
 *   if a character repeats 3x in a row: score = score - 1 (min 0)
 *   if every requirement is met and base >= 2: score + 1 at 16 characters, + 1 more at 20 (max 4); length alone
 *   must not lift a password zxcvbn finds easy to guess (repeated blocks such as Ab1!Ab1!Ab1!Ab1!Ab1!)
 * Lengths count Unicode code points.
 */
export function evaluatePassword(password: string, options: PasswordEvaluationOptions = {}): PasswordEvaluation {
  const length = Array.from(password).length;
  const zxcvbn = loadedZxcvbn();
  const result = zxcvbn?.check(password, options.userInputs ?? []);

  const met: Record<PasswordRequirementKey, boolean> = {
    length: length >= PASSWORD_MIN_LENGTH,
    uppercase: /\p{Lu}/u.test(password),
    lowercase: /\p{Ll}/u.test(password),
    digit: /\p{Nd}/u.test(password),
    special: /[^\p{L}\p{M}\p{N}]/u.test(password),
    noCommon: result ? !hasWordSequence(result) && !findCommonPattern(password, options) : true,
    noSequence: !hasSequence(password),
    noRepeat: !hasTripleRepeat(password),
  };
  const allMet = PASSWORD_REQUIREMENT_KEYS.every((key) => met[key]);

  const characterClasses = [met.uppercase, met.lowercase, met.digit, met.special].filter(Boolean).length;
  let score: number = result ? result.score : ruleScore(length, characterClasses);
  if (!allMet) score = Math.min(score, 2);
  if (!met.noRepeat) score -= 1;
  const base = score;
  if (allMet && base >= 2) score += PASSWORD_BONUS_LENGTHS.filter((bonusLength) => length >= bonusLength).length;
  const finalScore = Math.max(0, Math.min(4, score)) as PasswordScore;

  return {
    valid: allMet && finalScore >= PASSWORD_MIN_SCORE,
    score: finalScore,
    label: PASSWORD_STRENGTH_LABELS[finalScore],
    problems: PASSWORD_REQUIREMENT_KEYS.filter((key) => !met[key]).map((key) => PASSWORD_MESSAGES[key]),
    requirements: PASSWORD_REQUIREMENT_KEYS.map((key) => ({
      key,
      label: PASSWORD_REQUIREMENT_LABELS[key],
      met: met[key],
    })),
    dictionaryChecked: result !== undefined,
  };
}

/**
 * The SPEC messages for a password, empty exactly when `evaluatePassword(password).valid`: the unmet requirements,
 * or `PASSWORD_MESSAGES.tooWeak` when every requirement is met but the score is below 3. Used synchronously by the
 * server and the zod schemas; the "common words" rule only applies once `loadPasswordDictionaries` has completed.
 */
export function passwordProblems(password: string, options: PasswordEvaluationOptions = {}): string[] {
  return evaluationProblems(evaluatePassword(password, options));
}

/** The messages `passwordProblems` gives for an evaluation: its problems, or `tooWeak` for a low score alone. */
export function evaluationProblems(evaluation: PasswordEvaluation): string[] {
  if (!evaluation.valid && evaluation.problems.length === 0) return [PASSWORD_MESSAGES.tooWeak];
  return evaluation.problems;
}

/** The message for a password that fails the rules (SPEC section 5 "weak password gives ..."), server and web alike. */
export function weakPasswordMessage(problems: string[]): string {
  return `Password does not meet security requirements: ${problems.join('; ')}`;
}
