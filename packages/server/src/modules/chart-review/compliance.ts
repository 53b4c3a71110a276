import {
  ANSWER_VALUES,
  type AnswerValue,
  allOrNoneRate,
  type CrGrain,
  type CrRate,
  type CrTrend,
  computeSpc,
  periodLabel,
  periodRange,
  questionCompliance,
  type ScoredAnswer,
  wilsonInterval,
} from '@portal/shared';

/**
 * The figures of the chart review dashboard, compliance and export (docs/chart-review.md "Dashboard"), computed from
 * materialised case results (`cr_case_results`) with the shared engines only: questionCompliance and wilsonInterval
 * for every rate, allOrNoneRate, computeSpc for the P chart. Pure functions; the service reads the rows.
 * - Only results that count (`counts`) enter a rate: a case whose second review disagrees waits for adjudication.
 * - Overall compliance is the share of applicable items met over all items of the cases (Partial 0.5 when the
 *   project enables it), n = applicable items; the P chart plots the same numerator and denominator per period.
 */

export interface ResultRow {
  caseId: number;
  periodStart: string;
  unit: string | null;
  toolVersionId: number;
  score: number | null;
  allOrNone: boolean | null;
  /** { questionKey: 'yes' | 'no' | 'na' | 'partial' }: the final answers. */
  answers: Record<string, unknown>;
  counts: boolean;
}

export interface QuestionRow {
  key: string;
  text: string;
  position: number;
  critical: boolean;
  toolVersionId: number;
  version: number;
}

export interface Options {
  partialEnabled: boolean;
}

const isAnswer = (value: unknown): value is AnswerValue =>
  typeof value === 'string' && (ANSWER_VALUES as readonly string[]).includes(value);

/** The final answer of a key in a result, or null when it is not one of yes, no, na, partial. */
export function answerOf(result: Pick<ResultRow, 'answers'>, key: string): ScoredAnswer {
  const value = result.answers[key];
  return isAnswer(value) ? value : null;
}

/** Every final answer of the results (all keys). */
export function allAnswers(results: readonly Pick<ResultRow, 'answers'>[]): ScoredAnswer[] {
  return results.flatMap((result) => Object.values(result.answers).filter(isAnswer));
}

/** A rate with n and its Wilson 95 % interval, from answers (questionCompliance; Partial 0.5 when enabled). */
export function rateOfAnswers(values: readonly ScoredAnswer[], options: Options): CrRate & { successes: number } {
  const tally = questionCompliance(values, options);
  const successes = tally.yes + (options.partialEnabled ? 0.5 * tally.partial : 0);
  return { rate: tally.rate, n: tally.n, interval: wilsonInterval(successes, tally.n), successes };
}

const withoutSuccesses = ({ rate, n, interval }: CrRate): CrRate => ({ rate, n, interval });

/** Overall compliance of counted results: applicable items met / applicable items. */
export function overallCompliance(results: readonly Pick<ResultRow, 'answers'>[], options: Options): CrRate {
  return withoutSuccesses(rateOfAnswers(allAnswers(results), options));
}

/** All-or-none over the counted results where a critical item applied. */
export function allOrNone(results: readonly ResultRow[]): CrRate {
  const { met, n, rate } = allOrNoneRate(results.map((r) => r.allOrNone));
  return { rate, n, interval: wilsonInterval(met, n) };
}

/** The mean weighted case score over the results with a score. */
export function meanScore(results: readonly ResultRow[]): { mean: number | null; n: number } {
  const scores = results.map((r) => r.score).filter((s): s is number => s !== null);
  return { mean: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null, n: scores.length };
}

/** Whether a rate is below the target (false without a rate). */
export const belowTarget = (rate: number | null, target: number) => rate !== null && rate < target;

/** For each key, the question of the latest version that holds it (its wording, critical flag and position). */
export function latestQuestions(questions: readonly QuestionRow[]): Map<string, QuestionRow> {
  const latest = new Map<string, QuestionRow>();
  for (const q of questions) {
    const known = latest.get(q.key);
    if (!known || q.version > known.version) latest.set(q.key, q);
  }
  return latest;
}

/**
 * The question keys to show, in order: the keys of `versionId` by position, then any other key the results hold
 * (by their latest version, newest first, then position).
 */
export function orderedKeys(
  questions: readonly QuestionRow[],
  versionId: number | null,
  results: readonly ResultRow[],
): string[] {
  const base = questions
    .filter((q) => q.toolVersionId === versionId)
    .sort((a, b) => a.position - b.position)
    .map((q) => q.key);
  const latest = latestQuestions(questions);
  const seen = new Set(base);
  const extra = [...new Set(results.flatMap((r) => Object.keys(r.answers)))].filter((key) => !seen.has(key));
  extra.sort((a, b) => {
    const qa = latest.get(a);
    const qb = latest.get(b);
    if (!qa || !qb) return qa ? -1 : qb ? 1 : a.localeCompare(b);
    return qb.version - qa.version || qa.position - qb.position;
  });
  return [...base, ...extra];
}

/** Every key of the tool: the latest version's by position, then keys only older versions hold (newest first). */
export function allKeys(questions: readonly QuestionRow[]): string[] {
  return [...latestQuestions(questions).values()]
    .sort((a, b) => b.version - a.version || a.position - b.position)
    .map((q) => q.key);
}

/** The monthly (or quarterly) compliance P chart over every period from the first to the last sampled one. */
export function complianceTrend(
  counted: readonly ResultRow[],
  periods: readonly string[],
  grain: CrGrain,
  target: number,
  options: Options,
): CrTrend {
  const sorted = [...periods].sort();
  const axis = sorted.length ? periodRange(sorted[0]!, sorted[sorted.length - 1]!, grain) : [];
  const byPeriod = new Map<string, ResultRow[]>();
  for (const result of counted) {
    const list = byPeriod.get(result.periodStart);
    if (list) list.push(result);
    else byPeriod.set(result.periodStart, [result]);
  }
  const input = axis.map((period) => {
    const { successes, n } = rateOfAnswers(allAnswers(byPeriod.get(period) ?? []), options);
    return { period, numerator: successes, denominator: n };
  });
  const spc = computeSpc(input, { chart: 'p', rules: 'anhoej', direction: 'up', target });
  return {
    chart: 'p',
    rule_profile: 'anhoej',
    grain,
    points: spc.points.map((p) => ({
      period: p.period,
      label: periodLabel(p.period, grain),
      numerator: p.denominator ? p.numerator : null,
      denominator: p.denominator ? p.denominator : null,
      cases: byPeriod.get(p.period)?.length ?? 0,
      value: p.value,
      gap: p.gap,
      phase: p.phase,
      cl: p.cl,
      ucl: p.ucl,
      lcl: p.lcl,
      ucl2: p.ucl2,
      lcl2: p.lcl2,
      ucl1: p.ucl1,
      lcl1: p.lcl1,
      signals: p.signals,
      variation: p.variation,
    })),
    summary: spc.summary,
  };
}
