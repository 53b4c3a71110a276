import type { SpcChart } from './spc/types.js';
import type { MeasureType, PeriodGrain } from './vocabulary.js';

/**
 * Periods (DOMAIN.md §0.3): results are keyed by the first day of the period (ISO date 'YYYY-MM-DD') and the
 * grain, never by labels. Weeks start on Monday (ISO weeks). All arithmetic is on UTC dates.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const parse = (day: string) => new Date(`${day.slice(0, 10)}T00:00:00Z`);

/** The first day of the period that holds `day` (an ISO date). */
export function periodStart(day: string, grain: PeriodGrain): string {
  const d = parse(day);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (grain) {
    case 'year':
      return `${y}-01-01`;
    case 'quarter':
      return `${y}-${pad(m - (m % 3) + 1)}-01`;
    case 'month':
      return `${y}-${pad(m + 1)}-01`;
    case 'week': {
      const back = (d.getUTCDay() + 6) % 7;
      return iso(new Date(Date.UTC(y, m, d.getUTCDate() - back)));
    }
  }
}

/** The first day of the next period. */
export function nextPeriod(start: string, grain: PeriodGrain): string {
  const d = parse(start);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (grain === 'week') return iso(new Date(Date.UTC(y, m, d.getUTCDate() + 7)));
  const months = grain === 'month' ? 1 : grain === 'quarter' ? 3 : 12;
  return iso(new Date(Date.UTC(y, m + months, 1)));
}

/** Every period start from the period of `from` to the period of `to`, inclusive (no gaps in a chart's axis). */
export function periodRange(from: string, to: string, grain: PeriodGrain, limit = 5_000): string[] {
  const out: string[] = [];
  const last = periodStart(to, grain);
  for (let p = periodStart(from, grain); p <= last && out.length < limit; p = nextPeriod(p, grain)) out.push(p);
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A short label for axes and tables: "2026-W05", "Mar 2026", "2026 Q1", "2026". */
export function periodLabel(start: string, grain: PeriodGrain): string {
  const d = parse(start);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (grain) {
    case 'year':
      return String(y);
    case 'quarter':
      return `${y} Q${Math.floor(m / 3) + 1}`;
    case 'month':
      return `${MONTHS[m]} ${y}`;
    case 'week':
      return `Week of ${d.getUTCDate()} ${MONTHS[m]} ${y}`;
  }
}

/** The chart quality departments use for a measure type (DOMAIN.md 1.8, qicharts2 guidance). */
export function recommendedChart(type: MeasureType, options: { largeDenominators?: boolean } = {}): SpcChart {
  switch (type) {
    case 'proportion':
      return options.largeDenominators ? 'pprime' : 'p';
    case 'rate':
    case 'ratio':
      return options.largeDenominators ? 'uprime' : 'u';
    case 'continuous':
      return 'i';
    case 'count':
      return 'c';
    case 'time_between':
      return 'g';
  }
}

export const CHART_LABELS: Record<SpcChart, string> = {
  run: 'Run chart (median)',
  i: 'I chart (individuals, XmR)',
  p: 'P chart (proportions)',
  pprime: "P' chart (Laney, large denominators)",
  u: 'U chart (rates)',
  uprime: "U' chart (Laney, large denominators)",
  c: 'C chart (counts)',
  g: 'G chart (cases between events)',
  t: 'T chart (time between events)',
};
