/** The words of the SPC engine: charts, rule sets, rules and the shapes in and out. */

export const SPC_CHARTS = ['run', 'i', 'p', 'pprime', 'u', 'uprime', 'c', 'g', 't'] as const;
export type SpcChart = (typeof SPC_CHARTS)[number];
export const SPC_RULE_SETS = ['ihi_run', 'anhoej', 'western_electric', 'nelson', 'healthcare'] as const;
export type SpcRuleSet = (typeof SPC_RULE_SETS)[number];
export type SpcDirection = 'up' | 'down' | 'neutral';
export type SpcVariation = 'improvement' | 'concern' | 'common' | 'neutral';
export type SpcAssurance = 'pass' | 'fail' | 'hit_and_miss';

export const SPC_RULES = [
  'outside_limits',
  'astronomical',
  'shift',
  'trend',
  'runs',
  'too_many_runs',
  'two_of_three',
  'four_of_five',
  'hugging',
  'alternation',
  'fifteen_within_1sigma',
  'eight_outside_1sigma',
] as const;
export type SpcRule = (typeof SPC_RULES)[number];

export const RULE_LABELS: Record<SpcRule, string> = {
  outside_limits: 'A point outside the control limits',
  astronomical: 'An astronomical point, far from all the others',
  shift: 'A run of points on one side of the centre line',
  trend: 'A run of points steadily rising or falling',
  runs: 'Too few crossings of the centre line',
  too_many_runs: 'Too many crossings of the centre line',
  two_of_three: '2 of 3 points beyond 2 sigma',
  four_of_five: '4 of 5 points beyond 1 sigma on the same side',
  hugging: '15 points in a row hugging the centre line (within 1 sigma)',
  alternation: '14 points in a row alternating up and down',
  fifteen_within_1sigma: '15 points in a row within 1 sigma of the centre line',
  eight_outside_1sigma: '8 points in a row beyond 1 sigma, on both sides',
};

export const SPC_GAP_REASONS = ['no value', 'no denominator', 'not positive'] as const;
export type SpcGapReason = (typeof SPC_GAP_REASONS)[number];

/** Run charts rules apply from this many useful points (DOMAIN.md §1.10). */
export const MIN_RUN_RULE_POINTS = 10;
/** Limits computed from fewer baseline points than this are trial limits. */
export const TRIAL_LIMIT_POINTS = 20;

/**
 * How ihi_run judges the number of runs: 'swed_eisenhart' (the default) flags too few or too many runs against the
 * Swed-Eisenhart limits tabulated by Perla, Provost & Murray 2011 (Table 1); 'anhoej_crossings' flags too few
 * crossings only, the Anhøj test ihi_run used before issue 30.
 */
export const IHI_RUNS_TESTS = ['swed_eisenhart', 'anhoej_crossings'] as const;
export type IhiRunsTest = (typeof IHI_RUNS_TESTS)[number];

/**
 * The IHI astronomical data point, which Perla et al. leave to judgement (a value obviously different from the
 * rest). 'i_chart' (the default) flags a run-chart point more than 3 sigma from the median, sigma as an I chart of
 * the same baseline estimates it (screened mean moving range / 1.128, Provost & Murray p.156); 'off' leaves it out.
 */
export const ASTRONOMICAL_POINT_CRITERIA = ['i_chart', 'off'] as const;
export type AstronomicalPointCriterion = (typeof ASTRONOMICAL_POINT_CRITERIA)[number];

export interface SpcRuleSetParams {
  /** Points on one side: a number (at least), or 'anhoej' (longer than round(log2(n)) + 3). */
  shift: number | 'anhoej';
  trend?: number;
  /** 'crossings': too few crossings (Anhøj); 'ihi': per the ihiRunsTest option. */
  runs?: 'crossings' | 'ihi';
  /** The IHI astronomical data point (run charts only), per the astronomicalPoint option. */
  astronomical?: boolean;
  twoOfThree?: 'same_side' | 'any_side';
  fourOfFive?: boolean;
  alternation?: number;
  within1Sigma?: { rule: 'hugging' | 'fifteen_within_1sigma'; length: number };
  outside1Sigma?: number;
  minPoints?: number;
}

export const RULE_SET_PARAMS: Record<SpcRuleSet, SpcRuleSetParams> = {
  anhoej: { shift: 'anhoej', runs: 'crossings', minPoints: MIN_RUN_RULE_POINTS },
  ihi_run: { shift: 6, trend: 5, runs: 'ihi', astronomical: true, minPoints: MIN_RUN_RULE_POINTS },
  western_electric: { shift: 8, twoOfThree: 'same_side', fourOfFive: true },
  // Nelson 1984, test 2: nine points in a row on one side (Western Electric's rule 4 is eight).
  nelson: {
    shift: 9,
    twoOfThree: 'same_side',
    fourOfFive: true,
    trend: 6,
    alternation: 14,
    within1Sigma: { rule: 'fifteen_within_1sigma', length: 15 },
    outside1Sigma: 8,
  },
  healthcare: {
    shift: 8,
    twoOfThree: 'any_side',
    trend: 6,
    within1Sigma: { rule: 'hugging', length: 15 },
  },
};

export interface SpcInputPoint {
  period: string;
  value?: number | null;
  numerator?: number | null;
  denominator?: number | null;
  excluded?: boolean;
}

export interface SpcOptions {
  chart: SpcChart;
  rules: SpcRuleSet;
  /** Indexes (inclusive): limits computed on these points and extended. */
  baseline?: { from: number; to: number };
  /** Indexes where a new phase starts: lines are recomputed per phase. */
  phases?: number[];
  direction?: SpcDirection;
  target?: number | null;
  /** ihi_run: how the number of runs is judged; default 'swed_eisenhart' (docs/monitoring.md, "Rules as published"). */
  ihiRunsTest?: IhiRunsTest;
  /** ihi_run on a run chart: the astronomical data point criterion; default 'i_chart'. */
  astronomicalPoint?: AstronomicalPointCriterion;
}

export interface SpcPoint {
  period: string;
  value: number | null;
  numerator: number | null;
  denominator: number | null;
  excluded: boolean;
  gap: SpcGapReason | null;
  /** Index of the phase (segment) the point belongs to. */
  phase: number;
  cl: number | null;
  ucl: number | null;
  lcl: number | null;
  ucl2: number | null;
  lcl2: number | null;
  ucl1: number | null;
  lcl1: number | null;
  signals: SpcRule[];
  variation: SpcVariation;
}

export interface SpcSummary {
  variation: SpcVariation | null;
  assurance: SpcAssurance | null;
  trial: boolean;
  /** Points the latest phase's lines were computed from. */
  baseline_points: number;
  useful_points: number;
  longest_run: number | null;
  crossings: number | null;
  run_limit: number | null;
  crossing_limit: number | null;
}

export interface SpcResult {
  points: SpcPoint[];
  summary: SpcSummary;
}
