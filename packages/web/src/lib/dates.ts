/**
 * The web's date formats, one place for every screen (US English, as the SPEC's texts are).
 *
 * Two kinds of value come from the server:
 * - a calendar day, 'YYYY-MM-DD' (a due date, a review date, a period): read and shown in UTC, so no time zone can
 *   move it to the day before or after: formatDay, formatDayLong, formatMonth;
 * - a moment, an ISO date-time ('2026-03-04T18:00:00Z'): shown in the reader's time zone: formatDate,
 *   formatDateLong, formatDateTime, formatClock.
 * Each answers `empty` ('—' unless given) for a missing value and an unreadable value as it came.
 * The long date is the product's one long format, shared with the server's PDFs (formatLongDate in @portal/shared).
 */

import { formatLongDate } from '@portal/shared';

const EMPTY = '—';

const dayMedium = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const month = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dateMedium = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

type Value = string | null | undefined;

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The reader's time zone, for moments. */
const readerZone = dateMedium.resolvedOptions().timeZone;

function show(value: Value, empty: string, parse: (value: string) => Date, format: Intl.DateTimeFormat): string {
  if (!value) return empty;
  const date = parse(value);
  return Number.isNaN(date.getTime()) ? value : format.format(date);
}

const asDay = (day: string) => new Date(`${day}T00:00:00Z`);
const asMoment = (moment: string) => new Date(moment);

/** Calendar day: '2026-11-21' -> 'Nov 21, 2026'. */
export function formatDay(day: Value, empty = EMPTY): string {
  return show(day, empty, asDay, dayMedium);
}

/** Calendar day: '2026-11-21' -> 'November 21, 2026'. */
export function formatDayLong(day: Value, empty = EMPTY): string {
  return day && !CALENDAR_DAY.test(day) ? day : formatLongDate(day, { empty });
}

/** Calendar month, from any day of it: '2026-03-01' -> 'Mar 2026'. */
export function formatMonth(day: Value, empty = EMPTY): string {
  return show(day, empty, asDay, month);
}

/** Moment: '2026-03-04T18:00:00Z' -> 'Mar 4, 2026' (the reader's day). */
export function formatDate(moment: Value, empty = EMPTY): string {
  return show(moment, empty, asMoment, dateMedium);
}

/** Moment: '2026-03-04T18:00:00Z' -> 'March 4, 2026' (the reader's day). */
export function formatDateLong(moment: Value, empty = EMPTY): string {
  return formatLongDate(moment, { empty, timeZone: readerZone });
}

/** Moment: '2026-03-04T18:00:00Z' -> 'Mar 4, 2026, 10:00 AM' in the reader's time zone. */
export function formatDateTime(moment: Value, empty = EMPTY): string {
  return show(moment, empty, asMoment, dateTime);
}

/** Moment: '2026-03-04T18:05:00Z' -> '10:05' (24-hour HH:MM, the reader's time zone). */
export function formatClock(moment: Value, empty = EMPTY): string {
  return show(moment, empty, asMoment, clock);
}
