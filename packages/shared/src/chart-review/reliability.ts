/**
 * Inter-rater reliability between two raters on categorical items (issue 10; DOMAIN.md §2.1, §2.5).
 * - Percent agreement, Cohen's κ and PABAK side by side [C6][C7]: with high compliance κ collapses although the
 *   raters nearly always agree (the "kappa paradox"), so PABAK is shown beside it [C7].
 * - Items with κ < 0.70 are fed back to the abstractors; a program meets the bar at κ ≥ 0.75 and ≥ 95 % agreement
 *   [C6]. Both thresholds are project settings (cr_settings), these are the defaults.
 * Definitions:
 * - po = agreed / n; pe = Σ_c (aᶜ/n)(bᶜ/n) over the union of categories either rater used; κ = (po − pe)/(1 − pe),
 *   computed on integer counts as (n·agreed − Σ aᶜbᶜ) / (n² − Σ aᶜbᶜ) so no rounding creeps in.
 * - κ is undefined (null) when pe = 1, i.e. both raters used one and the same category for every pair: chance
 *   already explains all agreement. Percent agreement is then 100 % and PABAK 1.
 * - PABAK = (k·po − 1)/(k − 1), k = the number of categories of the answer scale (2 for Yes/No, 3 with N/A, 4 with
 *   Partial); k is raised to the number of categories actually seen if the caller passed fewer.
 * - Pairs where either rater has no answer (null) are skipped. `percent` is a fraction in [0, 1].
 */

export type RatedValue = string | null;

export interface Agreement {
  /** Pairs compared (both raters answered). */
  n: number;
  agreed: number;
  /** agreed / n, a fraction; null when n = 0. */
  percent: number | null;
  kappa: number | null;
  pabak: number | null;
}

export interface AgreementOptions {
  /** Categories of the answer scale (default 2: Yes/No). */
  categories?: number;
}

export function agreement(
  pairs: readonly (readonly [RatedValue, RatedValue])[],
  options: AgreementOptions = {},
): Agreement {
  const scale = options.categories ?? 2;
  if (!Number.isInteger(scale) || scale < 2) {
    throw new Error(`An answer scale has a whole number of categories, at least 2, not ${scale}.`);
  }
  const marginA = new Map<string, number>();
  const marginB = new Map<string, number>();
  let n = 0;
  let agreed = 0;
  for (const [a, b] of pairs) {
    if (a === null || b === null) continue;
    n++;
    if (a === b) agreed++;
    marginA.set(a, (marginA.get(a) ?? 0) + 1);
    marginB.set(b, (marginB.get(b) ?? 0) + 1);
  }
  if (n === 0) return { n, agreed, percent: null, kappa: null, pabak: null };

  const categories = new Set([...marginA.keys(), ...marginB.keys()]);
  let chance = 0; // Σ aᶜ·bᶜ = pe·n²
  for (const c of categories) chance += (marginA.get(c) ?? 0) * (marginB.get(c) ?? 0);
  const po = agreed / n;
  const kappa = chance === n * n ? null : (n * agreed - chance) / (n * n - chance);
  const k = Math.max(scale, categories.size);
  return { n, agreed, percent: po, kappa, pabak: (k * po - 1) / (k - 1) };
}

export interface QuestionReliability extends Agreement {
  key: string;
  /** κ below kappaMin. */
  flagged: boolean;
}

/**
 * Agreement per question, in the order questions first appear, flagged when κ < kappaMin (default 0.70 [C6]).
 * An undefined κ is never flagged: it means either no comparable pair or both raters giving one and the same answer
 * throughout, i.e. 100 % agreement.
 */
export function reliabilityByQuestion(
  items: readonly { key: string; a: RatedValue; b: RatedValue }[],
  options: AgreementOptions & { kappaMin?: number } = {},
): QuestionReliability[] {
  const kappaMin = options.kappaMin ?? 0.7;
  const byKey = new Map<string, [RatedValue, RatedValue][]>();
  for (const { key, a, b } of items) {
    const list = byKey.get(key);
    if (list) list.push([a, b]);
    else byKey.set(key, [[a, b]]);
  }
  return [...byKey].map(([key, pairs]) => {
    const result = agreement(pairs, options);
    return { key, ...result, flagged: result.kappa !== null && result.kappa < kappaMin };
  });
}

export interface ReliabilityThresholds {
  kappaMin: number;
  agreementMin: number;
}
export const DEFAULT_RELIABILITY_THRESHOLDS: ReliabilityThresholds = { kappaMin: 0.75, agreementMin: 0.95 };

/**
 * κ ≥ kappaMin and agreement ≥ agreementMin [C6]. An undefined κ (both raters one and the same category) is judged
 * on agreement alone; no comparable pair never meets the bar.
 */
export function meetsThresholds(
  result: { kappa: number | null; percent: number | null },
  thresholds: Partial<ReliabilityThresholds> = {},
): boolean {
  const kappaMin = thresholds.kappaMin ?? DEFAULT_RELIABILITY_THRESHOLDS.kappaMin;
  const agreementMin = thresholds.agreementMin ?? DEFAULT_RELIABILITY_THRESHOLDS.agreementMin;
  if (result.percent === null || result.percent < agreementMin) return false;
  return result.kappa === null || result.kappa >= kappaMin;
}
