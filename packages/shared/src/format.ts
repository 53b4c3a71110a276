/**
 * The product's one percent format and one long date format, for every screen, PDF, e-mail and message a person
 * reads (US English, as the SPEC's texts are). CSV exports and API fields stay machine-readable (plain numbers, ISO
 * dates): these two are for people only.
 */

/** What a missing value reads as, unless the caller gives another. */
const EMPTY = '—';

export interface PercentOptions {
  /**
   * The most decimals shown; trailing zeros are dropped. 1 (the default) for a measured rate; 0 for a whole
   * percentage (a progress bar, an attestation rate); 2 only to show a configured value (a target, a threshold) as
   * precisely as its form accepts it.
   */
  digits?: number;
  /** For null, undefined or NaN; '—' unless given. */
  empty?: string;
}

const percentFormats = new Map<number, Intl.NumberFormat>();

/**
 * A share from 0 to 1 as a percentage: en-US digits, no space before the sign, at most one decimal unless the
 * caller asks otherwise, trailing zeros dropped, rounded half away from zero.
 * 0.88 -> '88%', 0.90234 -> '90.2%', 0.975 -> '97.5%', 1 -> '100%', 0.07 -> '7%'; `{ digits: 0 }`: 0.905 -> '91%'.
 * A value held as a percentage (a sampling plan's 20 for 20 %) is passed divided by 100.
 */
export function formatPercent(share: number | null | undefined, options: PercentOptions = {}): string {
  const { digits = 1, empty = EMPTY } = options;
  if (share === null || share === undefined || Number.isNaN(share)) return empty;
  let format = percentFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'percent',
      minimumFractionDigits: 0,
      maximumFractionDigits: digits,
    });
    percentFormats.set(digits, format);
  }
  return format.format(share);
}

export interface LongDateOptions {
  /**
   * The time zone a moment (a Date or an ISO date-time) is shown in: 'UTC' unless given (the server's PDFs); the web
   * passes the reader's. A calendar day ('YYYY-MM-DD') is always read and shown in UTC, so no zone can move it.
   */
  timeZone?: string;
  /** For null, undefined or an empty string; '—' unless given. */
  empty?: string;
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
const longDateFormats = new Map<string, Intl.DateTimeFormat>();

function longDateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = longDateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone });
    longDateFormats.set(timeZone, format);
  }
  return format;
}

/**
 * The long US date, the one date format of the product's human-facing text: 'December 2, 2026'.
 * '2026-12-02' -> 'December 2, 2026' (a calendar day, in UTC); a Date or '2026-12-02T18:00:00Z' -> the day of that
 * moment in `timeZone` (UTC unless given). A missing value reads `empty`; an unreadable string comes back as it was.
 */
export function formatLongDate(value: string | Date | null | undefined, options: LongDateOptions = {}): string {
  const { timeZone = 'UTC', empty = EMPTY } = options;
  if (value === null || value === undefined || value === '') return empty;
  if (typeof value === 'string' && CALENDAR_DAY.test(value)) {
    const day = new Date(`${value}T00:00:00Z`);
    return Number.isNaN(day.getTime()) ? value : longDateFormat('UTC').format(day);
  }
  const moment = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(moment.getTime())) return typeof value === 'string' ? value : empty;
  return longDateFormat(timeZone).format(moment);
}
