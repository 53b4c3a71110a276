import { describe, expect, it } from 'vitest';
import { formatLongDate } from './dates';

describe('formatLongDate', () => {
  it('formats an ISO date in long US style, on the same calendar day in any time zone', () => {
    expect(formatLongDate('2026-11-21')).toBe('November 21, 2026');
    expect(formatLongDate('2026-01-01')).toBe('January 1, 2026');
  });

  it('returns an unreadable value unchanged', () => {
    expect(formatLongDate('not a date')).toBe('not a date');
  });
});
