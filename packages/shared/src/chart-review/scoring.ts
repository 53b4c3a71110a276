/**
 * Chart-review scoring (issue 10; DOMAIN.md §2.1, §2.5).
 * - Item compliance = Yes / (Yes + No), N/A excluded; Partial counts 0.5 when the project enables it (AuditSoft's
 *   Yes / Partial / No = 100 / 50 / 0 % [C5]).
 * - Case score = Σ wᵢsᵢ / Σ wᵢ over applicable items (answered Yes, No or Partial).
 * - All-or-none over the `critical` items: a case complies only if every applicable critical item is Yes
 *   (Nolan & Berwick [C14]; Partial is not "met").
 * - Every rate travels with its n and a Wilson 95 % interval, so small samples are not over-read.
 * Decisions (ours): a Partial answer while Partial is disabled (the setting changed after answering) scores 0 —
 * it is applicable but not met, never silently dropped. Unanswered items count nowhere; the submit check makes them
 * rare. Answers to keys that are not scored questions (text, number, date items) are ignored.
 */

export const ANSWER_VALUES = ['yes', 'no', 'na', 'partial'] as const;
export type AnswerValue = (typeof ANSWER_VALUES)[number];
/** null (or a missing key) means unanswered. */
export type ScoredAnswer = AnswerValue | null;

export interface QuestionForScore {
  key: string;
  /** > 0 */
  weight: number;
  critical: boolean;
}
export interface ScoringOptions {
  partialEnabled: boolean;
}

export interface CaseScore {
  /** Weighted score in [0, 1], or null when no item was applicable. */
  score: number | null;
  /** Items answered Yes, No or Partial. */
  applicable: number;
  /** Items answered Yes. */
  met: number;
  /** true when every applicable critical item is Yes; null when no critical item was applicable. */
  allOrNone: boolean | null;
}

/** The credit an answer earns, or null when the item does not count (N/A, unanswered). */
function credit(value: ScoredAnswer | undefined, { partialEnabled }: ScoringOptions): number | null {
  switch (value) {
    case 'yes':
      return 1;
    case 'partial':
      return partialEnabled ? 0.5 : 0;
    case 'no':
      return 0;
    default:
      return null;
  }
}

export function scoreCase(
  questions: readonly QuestionForScore[],
  answers: Readonly<Record<string, ScoredAnswer | undefined>>,
  options: ScoringOptions,
): CaseScore {
  let weighted = 0;
  let weights = 0;
  let applicable = 0;
  let met = 0;
  let criticalApplicable = 0;
  let criticalMet = 0;
  for (const q of questions) {
    if (!(Number.isFinite(q.weight) && q.weight > 0)) {
      throw new Error(`The weight of question "${q.key}" must be a number above 0.`);
    }
    const value = answers[q.key];
    const s = credit(value, options);
    if (s === null) continue;
    applicable++;
    weighted += q.weight * s;
    weights += q.weight;
    if (value === 'yes') met++;
    if (q.critical) {
      criticalApplicable++;
      if (value === 'yes') criticalMet++;
    }
  }
  return {
    score: applicable ? weighted / weights : null,
    applicable,
    met,
    allOrNone: criticalApplicable ? criticalMet === criticalApplicable : null,
  };
}

export interface QuestionCompliance {
  yes: number;
  no: number;
  partial: number;
  na: number;
  /** yes + no + partial: the cases where the item applied. */
  n: number;
  /** (yes + 0.5·partial) / n, Partial at 0 when disabled; null when n = 0. */
  rate: number | null;
}

/** Compliance of one question over many cases (unanswered values are not counted). */
export function questionCompliance(values: readonly ScoredAnswer[], options: ScoringOptions): QuestionCompliance {
  const tally = { yes: 0, no: 0, partial: 0, na: 0 };
  for (const v of values) if (v !== null) tally[v]++;
  const n = tally.yes + tally.no + tally.partial;
  const successes = tally.yes + (options.partialEnabled ? 0.5 * tally.partial : 0);
  return { ...tally, n, rate: n ? successes / n : null };
}

/**
 * Wilson score interval for a proportion (Wilson 1927; Newcombe 1998 method 3): for p = x/n,
 * centre = (p + z²/2n) / (1 + z²/n), half-width = z/(1 + z²/n) · √(p(1−p)/n + z²/4n²), clipped to [0, 1].
 * Successes may be fractional (Partial = 0.5). null when n = 0.
 */
export function wilsonInterval(successes: number, n: number, z = 1.96): { low: number; high: number } | null {
  if (n === 0) return null;
  if (!(n > 0) || !(successes >= 0 && successes <= n)) {
    throw new Error(`A rate needs 0 <= successes <= n, not ${successes} of ${n}.`);
  }
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Share of cases meeting all-or-none, over the cases where it applied (null results are not counted). */
export function allOrNoneRate(results: readonly (boolean | null)[]): { met: number; n: number; rate: number | null } {
  let met = 0;
  let n = 0;
  for (const r of results) {
    if (r === null) continue;
    n++;
    if (r) met++;
  }
  return { met, n, rate: n ? met / n : null };
}
