/** Centre lines and limits (qicharts2 R/qic.charts.R) and the Anhøj runs analysis. */
import type { SpcChart, SpcGapReason, SpcInputPoint, SpcPoint } from './types.js';

export const isNum = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);
export const at = <T>(xs: readonly T[], i: number): T => xs[i] as T;

export function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? at(s, m) : (at(s, m - 1) + at(s, m)) / 2;
}

const mean = (xs: readonly number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** R's qbinom(p, size, prob): the smallest k with P(X <= k) >= p. */
export function binomialQuantile(p: number, size: number, prob: number): number {
  if (size <= 0) return 0;
  const lq = Math.log(prob);
  const lr = Math.log1p(-prob);
  let logC = 0;
  let cdf = 0;
  for (let k = 0; k <= size; k++) {
    if (k > 0) logC += Math.log(size - k + 1) - Math.log(k);
    cdf += Math.exp(logC + k * lq + (size - k) * lr);
    if (cdf >= p * (1 - 64 * Number.EPSILON)) return k;
  }
  return size;
}

/** Anhøj limits for n useful points: a run longer than run_limit or fewer crossings than crossing_limit signal. */
export function anhoejLimits(n: number): { run_limit: number; crossing_limit: number } {
  return { run_limit: Math.round(Math.log2(n)) + 3, crossing_limit: binomialQuantile(0.05, Math.max(n - 1, 0), 0.5) };
}

/** Runs analysis (qicharts2 runs.analysis): values on the centre line are skipped. */
export function runsAnalysis(values: readonly number[], cl: number) {
  const sides = values.map((v) => Math.sign(v - cl)).filter((s) => s !== 0);
  const n = sides.length;
  if (!n) return { useful_points: 0, longest_run: null, crossings: null, run_limit: null, crossing_limit: null };
  let longest = 1;
  let current = 1;
  let crossings = 0;
  for (let i = 1; i < n; i++) {
    if (sides[i] === sides[i - 1]) current++;
    else {
      crossings++;
      current = 1;
    }
    longest = Math.max(longest, current);
  }
  return { useful_points: n, longest_run: longest, crossings, ...anhoejLimits(n) };
}

export interface Lines {
  cl: number;
  /** The line k sigma from the centre (k in -3..3), clipped, or null. */
  line: (i: number, k: number) => number | null;
}

const clip = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** The lines of one segment, from its baseline indexes; null when they cannot be computed. */
export function segmentLines(chart: SpcChart, pts: readonly SpcPoint[], base: readonly number[]): Lines | null {
  const vals = base.map((i) => at(pts, i).value).filter(isNum);
  if (!vals.length) return null;
  if (chart === 'run') {
    const cl = median(vals);
    return cl === null ? null : { cl, line: () => null };
  }
  if (chart === 'i' || chart === 't') {
    const tf = chart === 't' ? (y: number) => y ** (1 / 3.6) : (y: number) => y;
    const back = chart === 't' ? (y: number) => (y < 0 ? 0 : y ** 3.6) : (y: number) => y;
    const centre = mean(vals.map(tf)) as number;
    const mr: number[] = [];
    for (let j = 1; j < base.length; j++) {
      const a = at(pts, at(base, j - 1)).value;
      const b = at(pts, at(base, j)).value;
      if (isNum(a) && isNum(b)) mr.push(Math.abs(tf(b) - tf(a)));
    }
    const amr0 = mean(mr);
    if (amr0 === null) return null;
    const amr = mean(mr.filter((r) => r < 3.267 * amr0)) ?? amr0;
    const sigma = amr / 1.128;
    return { cl: back(centre), line: (_i, k) => back(centre + k * sigma) };
  }
  if (chart === 'c' || chart === 'g') {
    const cbar = mean(vals) as number;
    const sigma = chart === 'c' ? Math.sqrt(cbar) : Math.sqrt(cbar * (cbar + 1));
    const cl = chart === 'c' ? cbar : (median(vals) as number);
    return { cl, line: (_i, k) => Math.max(0, cbar + k * sigma) };
  }
  // p, pprime, u, uprime: ratio of sums over the baseline, sigma per point from its denominator.
  let num = 0;
  let den = 0;
  for (const i of base) {
    const p = at(pts, i);
    if (isNum(p.value) && isNum(p.numerator) && isNum(p.denominator)) {
      num += p.numerator;
      den += p.denominator;
    }
  }
  if (den <= 0) return null;
  const cl = num / den;
  const isP = chart === 'p' || chart === 'pprime';
  const sigmaOf = (i: number): number | null => {
    const n = at(pts, i).denominator;
    if (!isNum(n) || n <= 0) return null;
    return Math.sqrt((isP ? cl * (1 - cl) : cl) / n);
  };
  let sigmaZ = 1;
  if (chart === 'pprime' || chart === 'uprime') {
    // Laney: sigma_z = mean |z_i - z_(i-1)| / 1.128 over the baseline in time order. As in qicharts2
    // (qic.pprime: mean(abs(diff(z_i)), na.rm = TRUE)), a period without a value is NA in z, so the two moving
    // ranges beside it are NA and left out: a gap breaks the pair instead of being jumped over. Excluded points
    // are not in `base` (qicharts2 subsets them away), so the ranges close up over them, as on the I chart.
    const z = base.map((i) => {
      const s = sigmaOf(i);
      const v = at(pts, i).value;
      return isNum(v) && s !== null && s > 0 ? (v - cl) / s : null;
    });
    const ranges: number[] = [];
    for (let j = 1; j < z.length; j++) {
      const a = z[j - 1];
      const b = z[j];
      if (isNum(a) && isNum(b)) ranges.push(Math.abs(b - a));
    }
    const dz = mean(ranges);
    if (dz === null) return null;
    sigmaZ = dz / 1.128;
  }
  return {
    cl,
    line: (i, k) => {
      const s = sigmaOf(i);
      return s === null ? null : clip(cl + k * s * sigmaZ, 0, isP ? 1 : Number.POSITIVE_INFINITY);
    },
  };
}

export function pointValue(chart: SpcChart, p: SpcInputPoint): { value: number | null; gap: SpcGapReason | null } {
  const ratioChart = chart === 'p' || chart === 'pprime' || chart === 'u' || chart === 'uprime';
  // Other charts fall back to numerator / denominator when no value is given but a denominator is.
  const fromRatio = ratioChart || (!isNum(p.value) && p.denominator !== undefined && p.denominator !== null);
  if (fromRatio) {
    if (!isNum(p.denominator) || p.denominator === 0) return { value: null, gap: 'no denominator' };
    if (!isNum(p.numerator)) return { value: null, gap: 'no value' };
    return { value: p.numerator / p.denominator, gap: null };
  }
  if (!isNum(p.value)) return { value: null, gap: 'no value' };
  if (chart === 't' && p.value <= 0) return { value: null, gap: 'not positive' };
  return { value: p.value, gap: null };
}
