import { z } from 'zod';

/**
 * Chart-review sampling (issue 10; DOMAIN.md §2.1, §2.5): sample sizes and a reproducible seeded draw.
 * - Sizes: the Joint Commission table for chart-abstracted measures, 2023+ discharges [C1], fixed n, a percentage
 *   with min/max, or all cases.
 * - The draw ranks EVERY eligible case, so an exclusion takes the next ranked case and a surveyor holding the seed,
 *   the eligible list and SAMPLING_ALGORITHM can recompute the same ranks (DOMAIN §2.6 "sample provenance").
 * - Determinism: cases are sorted by ref in UTF-16 code-unit order (never localeCompare, which depends on the
 *   platform's ICU data), the seed is hashed with cyrb128 into the 128-bit state of sfc32, and each stratum is
 *   shuffled by Fisher–Yates (i from n-1 down to 1, j = floor(random * (i + 1))). All arithmetic is 32-bit integer.
 * - Stratified draws shuffle each stratum with its own generator, seeded `${seed}|${stratum}`, so a change in one
 *   unit's list leaves the other units' ranks alone.
 */

/** Stored with every sample; bump the version if anything below changes the ranks a seed produces. */
export const SAMPLING_ALGORITHM = 'sfc32-cyrb128-fisher-yates-v1';
/** The stratum of cases without a unit, and of every case when the plan is not stratified. */
export const UNSPECIFIED_STRATUM = 'Unspecified';
export const ALL_CASES_STRATUM = 'All cases';
export const MAX_SAMPLE_SIZE = 10_000;

const wholeCount = (message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(MAX_SAMPLE_SIZE, message);
const bound = (which: string) => wholeCount(`The ${which} sample size is a whole number from 1 to 10,000.`).optional();
const stratify_by_unit = z.boolean({ error: 'Choose whether to sample each unit separately.' }).optional();

export const samplingPlanSchema = z.discriminatedUnion(
  'method',
  [
    z.object({ method: z.literal('jc_table'), stratify_by_unit }),
    z.object({
      method: z.literal('fixed'),
      n: wholeCount('The sample size is a whole number from 1 to 10,000.'),
      stratify_by_unit,
    }),
    z
      .object({
        method: z.literal('percent'),
        pct: z
          .number({ error: 'The percentage is a number above 0 and at most 100.' })
          .gt(0, 'The percentage is a number above 0 and at most 100.')
          .max(100, 'The percentage is a number above 0 and at most 100.'),
        min: bound('minimum'),
        max: bound('maximum'),
        stratify_by_unit,
      })
      .refine((p) => p.min === undefined || p.max === undefined || p.min <= p.max, {
        message: 'The minimum sample size cannot be larger than the maximum.',
        path: ['max'],
      }),
    z.object({ method: z.literal('all'), stratify_by_unit }),
  ],
  { error: 'Choose a sampling method: Joint Commission table, fixed number, percentage or all cases.' },
);
export type SamplingPlan = z.infer<typeof samplingPlanSchema>;

function assertPopulation(population: number) {
  if (!Number.isInteger(population) || population < 0) {
    throw new Error(`The population must be a whole number of cases, not ${population}.`);
  }
}

/** Joint Commission sample size for a monthly initial patient population (2023+ discharges) [C1]. */
export function jcSampleSize(population: number): number {
  assertPopulation(population);
  if (population >= 510) return 102;
  // 20 %, rounded up; population / 5 is exact whenever the 20 % is a whole number.
  if (population >= 255) return Math.ceil(population / 5);
  if (population >= 51) return 51;
  return population;
}

/** Sample size for one population: percent rounds up, then min/max clamp, then never more than the population. */
export function planSampleSize(plan: SamplingPlan, population: number): number {
  assertPopulation(population);
  let size: number;
  switch (plan.method) {
    case 'jc_table':
      size = jcSampleSize(population);
      break;
    case 'fixed':
      size = plan.n;
      break;
    case 'percent': {
      // The tolerance keeps 4.4 % of 750 at 33: floating point gives 33.00000000000001, which would round up to 34.
      size = Math.ceil((population * plan.pct) / 100 - 1e-9);
      if (plan.min !== undefined) size = Math.max(size, plan.min);
      if (plan.max !== undefined) size = Math.min(size, plan.max);
      break;
    }
    case 'all':
      size = population;
      break;
  }
  return Math.min(size, population);
}

/** cyrb128 (bryc, github.com/bryc/code jshash): a string to four 32-bit words. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counter, PractRand) seeded by cyrb128(seed): numbers in [0, 1). */
export function seededRandom(seed: string): () => number {
  let [a, b, c, d] = cyrb128(seed);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A fresh seed: 128 random bits as 32 hex characters. */
export function newSeed(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface EligibleCase {
  ref: string;
  unit: string | null;
}
export interface RankedCase extends EligibleCase {
  /** 1..k within the stratum, in draw order. */
  rank: number;
  stratum: string;
  selected: boolean;
}
export interface StratumSize {
  stratum: string;
  population: number;
  size: number;
}
export interface DrawnSample {
  seed: string;
  algorithm: typeof SAMPLING_ALGORITHM;
  ranked: RankedCase[];
  size: number;
  byStratum: StratumSize[];
}

/** Thrown when the eligible list holds a case twice; `refs` lists them for the caller to show or log as it may. */
export class DuplicateCaseRefError extends Error {
  constructor(readonly refs: string[]) {
    super(
      refs.length === 1
        ? 'The eligible case list has one case reference twice. Each case may appear only once.'
        : `The eligible case list has ${refs.length} case references more than once. Each case may appear only once.`,
    );
    this.name = 'DuplicateCaseRefError';
  }
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Fixed n over strata, proportional to stratum population by the largest-remainder (Hamilton) method: each stratum
 * gets floor(n·Nᵢ/N), the seats left go to the largest remainders (ties: larger stratum, then name). When n is at
 * least the number of strata, a stratum left at 0 takes one case from the stratum with the most (ties: the first
 * listed) so every unit is audited. n is first capped at the total population.
 */
export function allocateFixed(n: number, strata: { stratum: string; population: number }[]): number[] {
  const total = strata.reduce((s, x) => s + x.population, 0);
  const seats = Math.min(n, total);
  if (total === 0) return strata.map(() => 0);
  // Integer arithmetic: the remainder of seats·Nᵢ / N, so equal remainders tie exactly (7/3 − 2 ≠ 1/3 in floats).
  const remainders = strata.map((s) => (seats * s.population) % total);
  const sizes = strata.map((s, i) => (seats * s.population - (remainders[i] as number)) / total);
  const order = strata
    .map((s, i) => ({ i, rem: remainders[i] as number, s }))
    .sort((x, y) => y.rem - x.rem || y.s.population - x.s.population || byCodeUnits(x.s.stratum, y.s.stratum));
  let left = seats - sizes.reduce((a, b) => a + b, 0);
  for (const { i } of order) {
    if (left-- <= 0) break;
    sizes[i] = (sizes[i] as number) + 1;
  }
  const nonEmpty = strata.filter((s) => s.population > 0).length;
  if (seats >= nonEmpty) {
    strata.forEach((s, i) => {
      if (s.population === 0 || sizes[i] !== 0) return;
      // Some stratum holds two or more: n >= non-empty strata and this one holds none.
      const donor = sizes.reduce((best, size, j) => (size > (sizes[best] as number) ? j : best), 0);
      sizes[donor] = (sizes[donor] as number) - 1;
      sizes[i] = 1;
    });
  }
  return sizes;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Ranks every eligible case with a seeded shuffle and selects the first `size` of each stratum. */
export function drawSample(input: { cases: EligibleCase[]; plan: SamplingPlan; seed: string }): DrawnSample {
  const { cases, plan, seed } = input;
  if (!seed) throw new Error('A sample needs a seed.');
  const sorted = [...cases].sort((a, b) => byCodeUnits(a.ref, b.ref));
  const duplicates = [...new Set(sorted.filter((c, i) => i > 0 && sorted[i - 1]?.ref === c.ref).map((c) => c.ref))];
  if (duplicates.length) throw new DuplicateCaseRefError(duplicates);

  const stratified = plan.stratify_by_unit === true;
  const groups = new Map<string, EligibleCase[]>();
  for (const c of sorted) {
    const stratum = stratified ? (c.unit ?? UNSPECIFIED_STRATUM) : ALL_CASES_STRATUM;
    const group = groups.get(stratum);
    if (group) group.push(c);
    else groups.set(stratum, [c]);
  }
  const names = [...groups.keys()].sort(byCodeUnits);
  const populations = names.map((stratum) => ({ stratum, population: groups.get(stratum)?.length ?? 0 }));
  const sizes =
    stratified && plan.method === 'fixed'
      ? allocateFixed(plan.n, populations)
      : populations.map((s) => planSampleSize(plan, s.population));

  const ranked = names.flatMap((stratum, s) => {
    const random = seededRandom(stratified ? `${seed}|${stratum}` : seed);
    return shuffled(groups.get(stratum) ?? [], random).map((c, i) => ({
      ref: c.ref,
      unit: c.unit,
      rank: i + 1,
      stratum,
      selected: i < (sizes[s] as number),
    }));
  });
  const byStratum = populations.map((p, s) => ({ ...p, size: sizes[s] as number }));
  return {
    seed,
    algorithm: SAMPLING_ALGORITHM,
    ranked,
    size: byStratum.reduce((a, s) => a + s.size, 0),
    byStratum,
  };
}

/** The replacement for an excluded case: the best-ranked unselected case of the stratum not yet excluded or taken. */
export function nextReplacement(
  ranked: readonly RankedCase[],
  stratum: string,
  excludedOrTaken: ReadonlySet<string>,
): RankedCase | null {
  let best: RankedCase | null = null;
  for (const c of ranked) {
    if (c.stratum !== stratum || c.selected || excludedOrTaken.has(c.ref)) continue;
    if (!best || c.rank < best.rank) best = c;
  }
  return best;
}
