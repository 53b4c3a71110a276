import { describe, expect, it } from 'vitest';
import {
  formatClock,
  formatDate,
  formatDateLong,
  formatDateTime,
  formatDay,
  formatDayLong,
  formatMonth,
} from './dates';

// The web tests run in America/Los_Angeles (vitest.config.ts): a calendar day read in local time instead of UTC
// would land on the day before, and a moment shown in UTC instead of local time would show the wrong hour.

describe('calendar days (no time zone moves them)', () => {
  it('formatDay: medium US style', () => {
    expect(formatDay('2026-11-21')).toBe('Nov 21, 2026');
    expect(formatDay('2026-01-01')).toBe('Jan 1, 2026');
  });

  it('formatDayLong: long US style', () => {
    expect(formatDayLong('2026-11-21')).toBe('November 21, 2026');
    expect(formatDayLong('2026-01-01')).toBe('January 1, 2026');
  });

  it('formatMonth: the month of any of its days', () => {
    expect(formatMonth('2026-03-01')).toBe('Mar 2026');
    expect(formatMonth('2026-12-31')).toBe('Dec 2026');
  });
});

describe('moments (the reader’s time zone)', () => {
  // 02:30 UTC on 1 March is still 28 February, 18:30, in Los Angeles.
  const late = '2026-03-01T02:30:00Z';

  it('formatDate: the reader’s day, medium', () => {
    expect(formatDate(late)).toBe('Feb 28, 2026');
    expect(formatDate('2026-03-04T18:00:00Z')).toBe('Mar 4, 2026');
  });

  it('formatDateLong: the reader’s day, long', () => {
    expect(formatDateLong(late)).toBe('February 28, 2026');
  });

  it('formatDateTime: day and time', () => {
    expect(formatDateTime('2026-03-04T18:00:00Z')).toBe('Mar 4, 2026, 10:00 AM');
    expect(formatDateTime(late)).toBe('Feb 28, 2026, 6:30 PM');
  });

  it('formatClock: 24-hour HH:MM', () => {
    expect(formatClock('2026-03-04T18:05:00Z')).toBe('10:05');
    expect(formatClock(late)).toBe('18:30');
  });
});

describe('missing and unreadable values', () => {
  const all = [formatDay, formatDayLong, formatMonth, formatDate, formatDateLong, formatDateTime, formatClock];

  it.each(all.map((format) => [format.name, format] as const))('%s: a dash, or the words given', (_name, format) => {
    expect(format(null)).toBe('—');
    expect(format(undefined)).toBe('—');
    expect(format('')).toBe('—');
    expect(format(null, 'Not set')).toBe('Not set');
  });

  it.each(all.map((format) => [format.name, format] as const))(
    '%s: an unreadable value as it came',
    (_name, format) => {
      expect(format('not a date')).toBe('not a date');
      expect(format('2026-13-45')).toBe('2026-13-45');
    },
  );
});
