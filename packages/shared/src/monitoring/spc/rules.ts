/** The rules that mark special-cause points; every point taking part in a pattern is marked. */
import { at, runsAnalysis } from './limits.js';
import { runsLimits } from './runs-table.js';
import {
  type AstronomicalPointCriterion,
  type IhiRunsTest,
  RULE_SET_PARAMS,
  type SpcChart,
  type SpcPoint,
  type SpcRule,
  type SpcRuleSet,
} from './types.js';

export interface Marks {
  signals: Set<SpcRule>[];
  /** +1 / -1 when a directional rule marked the point (trend direction or side of the centre line). */
  dir: number[];
}

function mark(m: Marks, rule: SpcRule, idx: readonly number[], dir: number | null) {
  for (const i of idx) {
    at(m.signals, i).add(rule);
    if (dir !== null && dir !== 0 && at(m.dir, i) === 0) m.dir[i] = dir;
  }
}

/** Runs of points on one side of the centre line (points on it skipped), at least minLength long. */
function shiftRule(pts: readonly SpcPoint[], idx: readonly number[], minLength: number, m: Marks) {
  let run: number[] = [];
  let side = 0;
  const flush = () => {
    if (run.length >= minLength) mark(m, 'shift', run, side);
  };
  for (const i of idx) {
    const p = at(pts, i);
    const s = Math.sign((p.value as number) - (p.cl as number));
    if (s === 0) continue;
    if (s !== side) {
      flush();
      run = [];
      side = s;
    }
    run.push(i);
  }
  flush();
}

/** Steady rises or falls of at least minPoints distinct values; equal neighbours count once and do not break. */
function trendRule(pts: readonly SpcPoint[], idx: readonly number[], minPoints: number, m: Marks) {
  let start = 0;
  let dir = 0;
  let count = 1;
  const close = (end: number) => {
    if (dir !== 0 && count >= minPoints) mark(m, 'trend', idx.slice(start, end + 1), dir);
  };
  for (let j = 1; j < idx.length; j++) {
    const d = Math.sign((at(pts, at(idx, j)).value as number) - (at(pts, at(idx, j - 1)).value as number));
    if (d === 0) continue;
    let tieStart = j - 1;
    while (tieStart > 0 && at(pts, at(idx, tieStart - 1)).value === at(pts, at(idx, j - 1)).value) tieStart--;
    if (d === dir) count++;
    else {
      close(j - 1);
      if (dir !== 0) start = tieStart;
      dir = d;
      count = 2;
    }
  }
  close(idx.length - 1);
}

function alternationRule(pts: readonly SpcPoint[], idx: readonly number[], minPoints: number, m: Marks) {
  let start = 0;
  let last = 0;
  for (let j = 1; j <= idx.length; j++) {
    const d = j < idx.length ? Math.sign(at(pts, at(idx, j)).value! - at(pts, at(idx, j - 1)).value!) : 0;
    if (d !== 0 && d === -last) {
      last = d;
      continue;
    }
    if (j - start >= minPoints && last !== 0) mark(m, 'alternation', idx.slice(start, j), null);
    start = d === 0 ? j : j - 1;
    last = d;
  }
}

/** Consecutive stretches where test holds for every point, at least minLength long. */
function stretchRule(
  idx: readonly number[],
  test: (i: number) => boolean,
  minLength: number,
  rule: SpcRule,
  m: Marks,
  accept: (run: number[]) => boolean = () => true,
) {
  let run: number[] = [];
  for (const i of [...idx, -1]) {
    if (i >= 0 && test(i)) {
      run.push(i);
      continue;
    }
    if (run.length >= minLength && accept(run)) mark(m, rule, run, null);
    run = [];
  }
}

/** k of n consecutive points beyond the k-sigma line (same side, or either side); the points beyond are marked. */
function windowRule(
  pts: readonly SpcPoint[],
  idx: readonly number[],
  need: number,
  size: number,
  upper: 'ucl1' | 'ucl2',
  lower: 'lcl1' | 'lcl2',
  anySide: boolean,
  rule: SpcRule,
  m: Marks,
) {
  const side = (i: number) => {
    const p = at(pts, i);
    const v = p.value as number;
    if (p[upper] !== null && v > (p[upper] as number)) return 1;
    if (p[lower] !== null && v < (p[lower] as number)) return -1;
    return 0;
  };
  for (let j = 0; j + size <= idx.length; j++) {
    const win = idx.slice(j, j + size);
    for (const s of anySide ? [0] : [1, -1]) {
      const hit = win.filter((i) => (anySide ? side(i) !== 0 : side(i) === s));
      if (hit.length >= need) for (const i of hit) mark(m, rule, [i], side(i));
    }
  }
}

export interface RuleOptions {
  ihiRunsTest: IhiRunsTest;
  astronomicalPoint: AstronomicalPointCriterion;
  /** Sigma of the segment as its I chart estimates it, for the astronomical point; null without a spread. */
  astronomicalSigma: number | null;
}

/** IHI rule 4 on a run chart: points more than 3 sigma (the I chart's) from the centre line (the median). */
function astronomicalRule(pts: readonly SpcPoint[], idx: readonly number[], sigma: number, m: Marks) {
  for (const i of idx) {
    const p = at(pts, i);
    const d = (p.value as number) - (p.cl as number);
    if (Math.abs(d) > 3 * sigma) mark(m, 'astronomical', [i], Math.sign(d));
  }
}

export function applyRules(
  pts: readonly SpcPoint[],
  idx: readonly number[],
  chart: SpcChart,
  rules: SpcRuleSet,
  m: Marks,
  options: RuleOptions,
) {
  const r = RULE_SET_PARAMS[rules];
  const limits = chart !== 'run';
  if (limits) {
    for (const i of idx) {
      const p = at(pts, i);
      const v = p.value as number;
      if ((p.ucl !== null && v > p.ucl) || (p.lcl !== null && v < p.lcl))
        mark(m, 'outside_limits', [i], v > p.cl! ? 1 : -1);
    }
  }
  const ra = runsOf(pts, idx);
  if (!idx.length || (r.minPoints !== undefined && ra.useful_points < r.minPoints)) return;
  if (r.astronomical && !limits && options.astronomicalPoint === 'i_chart' && options.astronomicalSigma) {
    astronomicalRule(pts, idx, options.astronomicalSigma, m);
  }
  if (r.shift === 'anhoej') {
    if (ra.run_limit !== null) shiftRule(pts, idx, ra.run_limit + 1, m);
  } else shiftRule(pts, idx, r.shift, m);
  const useful = () => idx.filter((i) => at(pts, i).value !== at(pts, i).cl);
  if (r.runs === 'ihi' && options.ihiRunsTest === 'swed_eisenhart') {
    // Perla et al. 2011 rule 3: runs = crossings + 1 over the useful observations, judged against Table 1.
    const lim = ra.crossings === null ? null : runsLimits(ra.useful_points);
    if (lim && ra.crossings !== null) {
      const runs = ra.crossings + 1;
      if (runs < lim.lower) mark(m, 'runs', useful(), null);
      if (runs > lim.upper) mark(m, 'too_many_runs', useful(), null);
    }
  } else if (r.runs && ra.crossings !== null && ra.crossing_limit !== null && ra.crossings < ra.crossing_limit) {
    mark(m, 'runs', useful(), null);
  }
  if (r.trend) trendRule(pts, idx, r.trend, m);
  if (r.alternation) alternationRule(pts, idx, r.alternation, m);
  if (!limits) return;
  if (r.twoOfThree) windowRule(pts, idx, 2, 3, 'ucl2', 'lcl2', r.twoOfThree === 'any_side', 'two_of_three', m);
  if (r.fourOfFive) windowRule(pts, idx, 4, 5, 'ucl1', 'lcl1', false, 'four_of_five', m);
  const within = (i: number) => {
    const p = at(pts, i);
    return p.ucl1 !== null && p.lcl1 !== null && p.value! >= p.lcl1 && p.value! <= p.ucl1;
  };
  if (r.within1Sigma) stretchRule(idx, within, r.within1Sigma.length, r.within1Sigma.rule, m);
  if (r.outside1Sigma) {
    const sides = (run: number[]) => new Set(run.map((i) => Math.sign(at(pts, i).value! - at(pts, i).cl!))).size > 1;
    stretchRule(idx, (i) => at(pts, i).ucl1 !== null && !within(i), r.outside1Sigma, 'eight_outside_1sigma', m, sides);
  }
}

export function runsOf(pts: readonly SpcPoint[], idx: readonly number[]) {
  const cl = idx.length ? at(pts, at(idx, 0)).cl : null;
  return runsAnalysis(
    idx.map((i) => at(pts, i).value as number),
    cl ?? 0,
  );
}
