import { describe, expect, it } from 'vitest';
import { nextPeriod, periodLabel, periodRange, periodStart, recommendedChart } from './periods.js';

describe('periods', () => {
  it.each([
    ['2026-03-17', 'month', '2026-03-01'],
    ['2026-03-17', 'quarter', '2026-01-01'],
    ['2026-12-31', 'quarter', '2026-10-01'],
    ['2026-03-17', 'year', '2026-01-01'],
    ['2026-03-17', 'week', '2026-03-16'],
    ['2026-03-15', 'week', '2026-03-09'],
    ['2026-01-01', 'week', '2025-12-29'],
  ] as const)('%s by %s starts on %s', (day, grain, start) => {
    expect(periodStart(day, grain)).toBe(start);
  });

  it('steps to the next period across year ends', () => {
    expect(nextPeriod('2026-12-01', 'month')).toBe('2027-01-01');
    expect(nextPeriod('2026-10-01', 'quarter')).toBe('2027-01-01');
    expect(nextPeriod('2026-12-28', 'week')).toBe('2027-01-04');
  });

  it('lists every period of a range, with no gaps', () => {
    expect(periodRange('2026-01-15', '2026-04-02', 'month')).toEqual([
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
      '2026-04-01',
    ]);
    expect(periodRange('2026-05-01', '2026-04-01', 'month')).toEqual([]);
  });

  it('labels periods', () => {
    expect(periodLabel('2026-03-01', 'month')).toBe('Mar 2026');
    expect(periodLabel('2026-04-01', 'quarter')).toBe('2026 Q2');
  });

  it('recommends the chart from the measure type', () => {
    expect(recommendedChart('proportion')).toBe('p');
    expect(recommendedChart('proportion', { largeDenominators: true })).toBe('pprime');
    expect(recommendedChart('rate')).toBe('u');
    expect(recommendedChart('continuous')).toBe('i');
    expect(recommendedChart('count')).toBe('c');
    expect(recommendedChart('time_between')).toBe('g');
  });
});
