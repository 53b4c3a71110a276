/**
 * The runs test of the IHI run-chart rules (Perla, Provost & Murray, "The run chart: a simple analytical tool for
 * learning from variation in healthcare processes", BMJ Qual Saf 2011;20:46-51, rule 3 and Table 1, after Swed &
 * Eisenhart, Ann Math Stat 1943;14:66-87). A run is a stretch of points on one side of the median; points on the
 * median are not useful observations and are skipped; the number of runs is the number of crossings plus one.
 *
 * Limits for n useful observations: fewer runs than `lower` is too few, more than `upper` is too many. They are the
 * 5% two-sided bounds of the distribution of the number of runs R with n1 = floor(n / 2) points on one side and
 * n2 = ceil(n / 2) on the other: lower is the smallest r with P(R <= r) > 2.5%, upper the largest r with
 * P(R >= r) > 2.5%. The table covers the rows of Perla's Table 1 (10 to 60); longer series are computed the same
 * way, exactly, with BigInt counts. spc.test.ts checks the table against the computation row by row.
 */

/** n useful observations -> [lower, upper]: runs < lower are too few, runs > upper too many. */
export const SWED_EISENHART_RUNS: Readonly<Record<number, readonly [number, number]>> = {
  10: [3, 9],
  11: [4, 9],
  12: [4, 10],
  13: [4, 11],
  14: [4, 12],
  15: [5, 12],
  16: [5, 13],
  17: [6, 13],
  18: [6, 14],
  19: [6, 15],
  20: [7, 15],
  21: [7, 16],
  22: [8, 16],
  23: [8, 17],
  24: [8, 18],
  25: [9, 18],
  26: [9, 19],
  27: [10, 19],
  28: [10, 20],
  29: [10, 21],
  30: [11, 21],
  31: [11, 22],
  32: [12, 22],
  33: [12, 23],
  34: [12, 24],
  35: [13, 24],
  36: [13, 25],
  37: [14, 25],
  38: [14, 26],
  39: [14, 26],
  40: [15, 27],
  41: [15, 28],
  42: [16, 28],
  43: [16, 29],
  44: [17, 29],
  45: [17, 30],
  46: [17, 31],
  47: [18, 31],
  48: [18, 32],
  49: [19, 32],
  50: [19, 33],
  51: [20, 33],
  52: [20, 34],
  53: [20, 35],
  54: [21, 35],
  55: [21, 36],
  56: [22, 36],
  57: [22, 37],
  58: [23, 37],
  59: [23, 38],
  60: [24, 38],
};

/** C(m, 0..m) as BigInt, by C(m, j + 1) = C(m, j) * (m - j) / (j + 1) (exact). */
function binomialRow(m: number): bigint[] {
  const row = [1n];
  for (let j = 0; j < m; j++) row.push(((row[j] as bigint) * BigInt(m - j)) / BigInt(j + 1));
  return row;
}

/** How many of the C(n1 + n2, n1) arrangements have exactly r runs (Swed & Eisenhart 1943). */
function runsCounts(n1: number, n2: number): bigint[] {
  const a = binomialRow(n1 - 1);
  const b = binomialRow(n2 - 1);
  const c = (row: bigint[], k: number) => (k >= 0 && k < row.length ? (row[k] as bigint) : 0n);
  const counts: bigint[] = [];
  for (let r = 0; r <= n1 + n2; r++) {
    if (r < 2) counts.push(0n);
    else if (r % 2 === 0) counts.push(2n * c(a, r / 2 - 1) * c(b, r / 2 - 1));
    else {
      const k = (r - 1) / 2;
      counts.push(c(a, k - 1) * c(b, k) + c(a, k) * c(b, k - 1));
    }
  }
  return counts;
}

/** The exact 5% two-sided limits for n useful observations split into equal halves; null below 2. */
export function swedEisenhartLimits(n: number): { lower: number; upper: number } | null {
  if (!Number.isInteger(n) || n < 2) return null;
  const counts = runsCounts(Math.floor(n / 2), Math.ceil(n / 2));
  const total = counts.reduce((s, x) => s + x, 0n);
  // P > 2.5% <=> 40 * count > total.
  let lower = 2;
  for (let r = 0, cum = 0n; r < counts.length; r++) {
    cum += counts[r] as bigint;
    if (40n * cum > total) {
      lower = r;
      break;
    }
  }
  let upper = n;
  for (let r = counts.length - 1, cum = 0n; r >= 0; r--) {
    cum += counts[r] as bigint;
    if (40n * cum > total) {
      upper = r;
      break;
    }
  }
  return { lower, upper };
}

const computed = new Map<number, { lower: number; upper: number } | null>();

/** Runs limits for n useful observations: Table 1's row for 10 to 60, the same computation beyond. */
export function runsLimits(n: number): { lower: number; upper: number } | null {
  const row = SWED_EISENHART_RUNS[n];
  if (row) return { lower: row[0], upper: row[1] };
  if (!computed.has(n)) computed.set(n, swedEisenhartLimits(n));
  return computed.get(n) ?? null;
}
