import { type CrGrain, formatPercent, type SamplingPlan } from '@portal/shared';

export const SAMPLING_METHOD_LABELS: Record<SamplingPlan['method'], string> = {
  jc_table: 'Joint Commission table',
  fixed: 'Fixed number',
  percent: 'Percentage',
  all: 'All cases',
};

export const GRAIN_LABELS: Record<CrGrain, string> = { month: 'Monthly', quarter: 'Quarterly' };

const count = (n: number) => n.toLocaleString('en-US');

/** A sampling plan in words: "Joint Commission table", "Fixed 30 per month", "20% (min 10, max 50)", "All cases". */
export function describeSamplingPlan(plan: SamplingPlan, grain: CrGrain): string {
  let words: string;
  switch (plan.method) {
    case 'jc_table':
    case 'all':
      words = SAMPLING_METHOD_LABELS[plan.method];
      break;
    case 'fixed':
      words = `Fixed ${count(plan.n)} per ${grain}`;
      break;
    case 'percent': {
      const bounds = [
        plan.min === undefined ? null : `min ${count(plan.min)}`,
        plan.max === undefined ? null : `max ${count(plan.max)}`,
      ].filter(Boolean);
      words = `${formatPercent(plan.pct / 100, { digits: 2 })}${bounds.length ? ` (${bounds.join(', ')})` : ''}`;
      break;
    }
  }
  return plan.stratify_by_unit ? `${words}, each unit separately` : words;
}
