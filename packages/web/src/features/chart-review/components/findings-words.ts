import { type CrFindingStatus, type CrSuccessState, formatPercent, periodLabel } from '@portal/shared';

/** Words and colours the findings screens share. */

export const FINDING_STATUS_LABELS: Record<CrFindingStatus, string> = {
  open: 'Open',
  action_plan: 'Action plan',
  closed: 'Closed',
};
// Dark shades: the light badges' text must keep 4.5:1 contrast.
export const FINDING_STATUS_COLORS: Record<CrFindingStatus, string> = {
  open: 'red.9',
  action_plan: 'blue.9',
  closed: 'gray.8',
};

/** "72% (n = 18)", or "no rate (n = 0)". */
export function rateWithN(rate: number | null, n: number): string {
  return `${rate === null ? 'no rate' : formatPercent(rate)} (n = ${n})`;
}

/** "Mar 2026" for a month, "2026 Q1" for the first day of a quarter's period. */
export function periodName(period: string, grain: 'month' | 'quarter' = 'month'): string {
  return periodLabel(period, grain);
}

/** The last `count` period starts of a grain before the one holding `today`, newest first. */
export function recentPeriods(grain: 'month' | 'quarter', today: Date, count = 12): string[] {
  const step = grain === 'month' ? 1 : 3;
  const month = today.getUTCMonth() - (grain === 'quarter' ? today.getUTCMonth() % 3 : 0);
  const out: string[] = [];
  for (let i = 1; i <= count; i++) {
    const d = new Date(Date.UTC(today.getUTCFullYear(), month - i * step, 1));
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** The success rule in words: "Met: 2 of 2 periods at or beyond 90%." */
export function successWords(state: CrSuccessState): string {
  const metCount = state.latest.filter((p) => p.met).length;
  const source = state.source === 'measure' ? 'the linked measure' : 'this finding’s own compliance';
  if (state.met)
    return `Met: ${source} was at or beyond ${formatPercent(state.target, { digits: 2 })} for ${state.required} complete period${state.required === 1 ? '' : 's'} in a row.`;
  if (state.periods_checked < state.required)
    return `Not met yet: ${state.periods_checked} of ${state.required} complete periods after the finding so far (${source}).`;
  return `Not met yet: ${metCount} of the latest ${state.required} periods at or beyond ${formatPercent(state.target, { digits: 2 })} (${source}).`;
}
