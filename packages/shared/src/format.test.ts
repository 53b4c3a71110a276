import { describe, expect, it } from 'vitest';
import { formatLongDate, formatPercent } from './format.js';

describe('formatPercent: one percent format', () => {
  it('writes no space before the sign and at most one decimal, trailing zeros dropped', () => {
    expect(formatPercent(0.88)).toBe('88%');
    expect(formatPercent(0.90234)).toBe('90.2%');
    expect(formatPercent(0.975)).toBe('97.5%');
    expect(formatPercent(0.9)).toBe('90%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
  });

  it('hides the binary noise of a share (0.07 * 100 is 7.000000000000001)', () => {
    expect(formatPercent(0.07)).toBe('7%');
    expect(formatPercent(18 / 21)).toBe('85.7%');
    expect(formatPercent(2 / 3)).toBe('66.7%');
  });

  it('rounds half away from zero', () => {
    expect(formatPercent(0.125, { digits: 0 })).toBe('13%');
    expect(formatPercent(0.0625)).toBe('6.3%');
  });

  it('whole percentages with digits 0; a configured value with digits 2', () => {
    expect(formatPercent(0.90234, { digits: 0 })).toBe('90%');
    expect(formatPercent(0.9725, { digits: 2 })).toBe('97.25%');
    expect(formatPercent(0.975, { digits: 2 })).toBe('97.5%');
  });

  it('a missing value reads a dash, or what the caller gives', () => {
    expect(formatPercent(null)).toBe('—');
    expect(formatPercent(undefined)).toBe('—');
    expect(formatPercent(Number.NaN)).toBe('—');
    expect(formatPercent(null, { empty: 'None' })).toBe('None');
  });

  it('groups thousands in US English', () => {
    expect(formatPercent(12.5)).toBe('1,250%');
  });
});

describe('formatLongDate: one long date format', () => {
  it('a calendar day reads as the long US date, whatever the zone asked for', () => {
    expect(formatLongDate('2026-12-02')).toBe('December 2, 2026');
    expect(formatLongDate('2026-01-01')).toBe('January 1, 2026');
    expect(formatLongDate('2026-01-01', { timeZone: 'America/Los_Angeles' })).toBe('January 1, 2026');
  });

  it('a moment reads as its day in UTC unless a zone is given', () => {
    const late = '2026-03-01T02:30:00Z';
    expect(formatLongDate(late)).toBe('March 1, 2026');
    expect(formatLongDate(new Date(late))).toBe('March 1, 2026');
    expect(formatLongDate(late, { timeZone: 'America/Los_Angeles' })).toBe('February 28, 2026');
  });

  it('a missing value reads a dash (or the given text); an unreadable one comes back as it was', () => {
    expect(formatLongDate(null)).toBe('—');
    expect(formatLongDate(undefined, { empty: 'None' })).toBe('None');
    expect(formatLongDate('')).toBe('—');
    expect(formatLongDate('soon')).toBe('soon');
    expect(formatLongDate(new Date(Number.NaN))).toBe('—');
  });
});
