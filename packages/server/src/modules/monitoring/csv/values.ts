import type { DateFormat } from '@portal/shared';

/**
 * How the cells of an imported CSV file are read (DOMAIN.md 1.4): null tokens, numbers with thousands separators,
 * booleans and the dates of DATE_FORMATS. Shared by detection (which type fits a column) and conversion (the value
 * stored). Every function takes the raw cell and trims it itself.
 */

/** Cells that mean "no value": blank, N/A, NA, #N/A, NULL, a lone dash. */
const NULL_TOKENS = new Set(['', 'n/a', 'na', '#n/a', 'null', '-']);
export function isNullCell(cell: string): boolean {
  const text = cell.trim();
  // Every token is at most four characters: most cells are decided without lower-casing them.
  return text.length <= 4 && NULL_TOKENS.has(text.toLowerCase());
}

/** 1234.5, -1,234.5, 1 234, 1.5e3, .5; thousands groups only in threes and with one separator kind per number. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const GROUPED_NUMBER = /^[+-]?\d{1,3}(?<sep>[, \u00a0\u202f'])\d{3}(?:\k<sep>\d{3})*(?:\.\d+)?$/;

/** The number in a cell, or null when the cell is not a number (call isNullCell first). */
export function parseNumber(cell: string): number | null {
  const text = cell.trim();
  let plain: string;
  if (PLAIN_NUMBER.test(text)) plain = text;
  else if (GROUPED_NUMBER.test(text)) plain = text.replace(/[, \u00a0\u202f']/g, '');
  else return null;
  const value = Number(plain);
  return Number.isFinite(value) ? value : null;
}

const TRUE_WORDS = new Set(['true', 'yes', 'y']);
const FALSE_WORDS = new Set(['false', 'no', 'n']);

/** true/false, yes/no, y/n; 1 and 0 too when the column is known to be boolean (`digits`). */
export function parseBoolean(cell: string, digits = false): boolean | null {
  const text = cell.trim().toLowerCase();
  if (TRUE_WORDS.has(text) || (digits && text === '1')) return true;
  if (FALSE_WORDS.has(text) || (digits && text === '0')) return false;
  return null;
}

/** An optional time after a date (kept out of the stored date: rows are placed by day). */
const TIME = String.raw`(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?: ?[AaPp][Mm])?(?:Z|[+-]\d{2}:?\d{2})?)?`;
const PATTERNS: Record<DateFormat, { re: RegExp; order: 'ymd' | 'mdy' | 'dmy' | 'ym' }> = {
  'YYYY-MM-DD': { re: new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})${TIME}$`), order: 'ymd' },
  'MM/DD/YYYY': { re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TIME}$`), order: 'mdy' },
  'DD/MM/YYYY': { re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TIME}$`), order: 'dmy' },
  'YYYY-MM': { re: /^(\d{4})-(\d{1,2})$/, order: 'ym' },
  'DD.MM.YYYY': { re: new RegExp(`^(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})${TIME}$`), order: 'dmy' },
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** An ISO date 'YYYY-MM-DD' when the parts make a real calendar day (years 1000 to 9999). */
export function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1000 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = month === 2 && leap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day > daysInMonth) return null;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The ISO date of a cell in one format ('YYYY-MM' gives the first of the month), or null. */
export function parseDate(cell: string, format: DateFormat): string | null {
  const { re, order } = PATTERNS[format];
  const match = re.exec(cell.trim());
  if (!match) return null;
  const [a, b, c] = [Number(match[1]), Number(match[2]), Number(match[3])];
  switch (order) {
    case 'ymd':
      return isoDate(a, b, c);
    case 'mdy':
      return isoDate(c, a, b);
    case 'dmy':
      return isoDate(c, b, a);
    case 'ym':
      return isoDate(a, b, 1);
  }
}
