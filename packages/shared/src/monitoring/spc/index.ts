/**
 * The SPC engine for monitoring (issue 9 (b); DOMAIN.md §1.1, §1.10): centre lines, limits and rule signals as pure
 * functions, ported from the qicharts2 formulas (R/qic.charts.R). The server computes, the web only draws.
 *
 * Decisions (ours, documented here):
 * - Points are drawn in time order; a point without a value (or, for P/U charts, without a denominator) is a gap
 *   with a reason. Excluded points are returned with their segment's lines but take no part in limits or rules.
 * - `phases` split the series into segments whose lines are computed independently. Within a segment, the limits
 *   come from the points inside `baseline` (when the segment overlaps it) and are extended to the rest.
 * - I chart: moving ranges are taken between consecutive baseline points (excluded points dropped, a gap breaks
 *   the pair, as in qicharts2). T chart: the same on y^(1/3.6), lines back-transformed; values <= 0 are gaps.
 * - G chart: limits from the mean, the centre line shown is the median of the baseline values (qicharts2 shows the
 *   median); its 1σ/2σ lines are around the mean.
 * - Run-chart rule sets (anhoej, ihi_run) need 10 useful points (the critical-value tables start at 10; §1.10).
 *   On control charts every rule set also flags points outside the 3σ limits.
 * - ihi_run follows Perla, Provost & Murray 2011 (issue 30): shift 6+, trend 5+, too few or too many runs against
 *   the Swed-Eisenhart limits (runs-table.ts; option ihiRunsTest 'anhoej_crossings' keeps the older Anhøj
 *   crossings test), and on run charts the astronomical data point, which the source leaves to judgement: here a
 *   point more than 3σ from the median, σ as an I chart of the same baseline estimates it (screened mean moving
 *   range / 1.128; option astronomicalPoint). The median, not the I chart's mean, so that the wild point itself
 *   does not drag the centre towards it and push ordinary points out.
 * - On run charts the rules that need σ (2 of 3, 4 of 5, hugging, 1σ rules) are skipped.
 * - Points exactly on the centre line neither count for nor break a run on one side; ties in a trend count once.
 * - Rule `nelson` is Western Electric plus Nelson's four extra rules, with 9 in a row on one side (Nelson 1984,
 *   test 2; Western Electric keeps 8). Lengths live in RULE_SET_PARAMS.
 * - P′/U′ (Laney): the moving ranges of z are broken at a period without a value, as in qicharts2.
 * - Variation: outside limits, astronomical point, shift, 2 of 3, 4 of 5 take the point's side of the centre line;
 *   trend takes the trend's direction; the others (runs or crossings, hugging, alternation, 1σ rules) carry no
 *   direction -> 'neutral'.
 */
import { at, isNum, type Lines, pointValue, segmentLines } from './limits.js';
import { applyRules, type Marks, runsOf } from './rules.js';
import {
  SPC_RULES,
  type SpcAssurance,
  type SpcDirection,
  type SpcInputPoint,
  type SpcOptions,
  type SpcPoint,
  type SpcResult,
  type SpcRule,
  type SpcVariation,
  TRIAL_LIMIT_POINTS,
} from './types.js';

export { anhoejLimits, binomialQuantile, runsAnalysis } from './limits.js';
export { runsLimits, SWED_EISENHART_RUNS, swedEisenhartLimits } from './runs-table.js';
export * from './types.js';

/** Sigma of an I chart's lines (screened mean moving range / 1.128); null without lines or without a spread. */
function iChartSigma(lines: Lines | null): number | null {
  const sigma = lines ? (lines.line(0, 1) as number) - lines.cl : 0;
  return sigma > 0 ? sigma : null;
}

function variationOf(dir: number, signalled: boolean, direction: SpcDirection): SpcVariation {
  if (!signalled) return 'common';
  if (direction === 'neutral' || dir === 0) return 'neutral';
  return dir > 0 === (direction === 'up') ? 'improvement' : 'concern';
}

/** Making Data Count assurance: where the target sits against the latest limits, by improvement direction. */
export function assuranceOf(
  target: number | null | undefined,
  ucl: number | null,
  lcl: number | null,
  direction: SpcDirection,
): SpcAssurance | null {
  if (!isNum(target) || ucl === null || lcl === null || direction === 'neutral') return null;
  if (direction === 'up') return target <= lcl ? 'pass' : target > ucl ? 'fail' : 'hit_and_miss';
  return target >= ucl ? 'pass' : target < lcl ? 'fail' : 'hit_and_miss';
}

/** Computes lines, signals, variation and assurance for points in time order. */
export function computeSpc(input: readonly SpcInputPoint[], options: SpcOptions): SpcResult {
  const { chart, rules } = options;
  const direction = options.direction ?? 'neutral';
  const n = input.length;
  const starts = [...new Set([0, ...(options.phases ?? []).filter((s) => s > 0 && s < n)])].sort((a, b) => a - b);
  const pts: SpcPoint[] = input.map((p, i) => {
    const { value, gap } = pointValue(chart, p);
    let phase = 0;
    while (phase + 1 < starts.length && at(starts, phase + 1) <= i) phase++;
    return {
      period: p.period,
      value,
      numerator: p.numerator ?? null,
      denominator: p.denominator ?? null,
      excluded: p.excluded === true,
      gap,
      phase,
      cl: null,
      ucl: null,
      lcl: null,
      ucl2: null,
      lcl2: null,
      ucl1: null,
      lcl1: null,
      signals: [],
      variation: 'common',
    };
  });
  const m: Marks = { signals: pts.map(() => new Set<SpcRule>()), dir: pts.map(() => 0) };
  let baselinePoints = 0;
  let lastIdx: number[] = [];
  starts.forEach((start, s) => {
    const end = s + 1 < starts.length ? at(starts, s + 1) : n;
    const all = Array.from({ length: end - start }, (_, k) => start + k);
    const b = options.baseline;
    const inBase = b ? all.filter((i) => i >= b.from && i <= b.to) : [];
    const base = (inBase.length ? inBase : all).filter((i) => !at(pts, i).excluded);
    const lines = segmentLines(chart, pts, base);
    for (const i of all) {
      const p = at(pts, i);
      if (!lines) continue;
      p.cl = lines.cl;
      p.ucl = lines.line(i, 3);
      p.ucl2 = lines.line(i, 2);
      p.ucl1 = lines.line(i, 1);
      p.lcl1 = lines.line(i, -1);
      p.lcl2 = lines.line(i, -2);
      p.lcl = lines.line(i, -3);
    }
    const idx = lines ? all.filter((i) => !at(pts, i).excluded && at(pts, i).value !== null) : [];
    applyRules(pts, idx, chart, rules, m, {
      ihiRunsTest: options.ihiRunsTest ?? 'swed_eisenhart',
      astronomicalPoint: options.astronomicalPoint ?? 'i_chart',
      astronomicalSigma: chart === 'run' ? iChartSigma(segmentLines('i', pts, base)) : null,
    });
    baselinePoints = base.filter((i) => at(pts, i).value !== null).length;
    lastIdx = idx;
  });
  for (const [i, p] of pts.entries()) {
    p.signals = SPC_RULES.filter((r) => at(m.signals, i).has(r));
    p.variation = variationOf(at(m.dir, i), p.signals.length > 0, direction);
  }
  const latest = pts.findLast((p) => !p.excluded && p.value !== null) ?? null;
  const withLimits = pts.findLast((p) => p.ucl !== null && p.lcl !== null) ?? null;
  const ra = runsOf(pts, lastIdx);
  return {
    points: pts,
    summary: {
      variation: latest ? latest.variation : null,
      assurance: withLimits ? assuranceOf(options.target, withLimits.ucl, withLimits.lcl, direction) : null,
      trial: baselinePoints < TRIAL_LIMIT_POINTS,
      baseline_points: baselinePoints,
      ...ra,
    },
  };
}
