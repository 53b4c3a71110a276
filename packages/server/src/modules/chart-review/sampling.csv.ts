import { CR_UPLOAD_LIMITS } from '@portal/shared';
import { parse } from 'csv-parse/sync';
import { looksBinary, NOT_CSV_TEXT } from '../../lib/csv.js';
import { AppError } from '../../lib/errors.js';

/**
 * Reads an eligible-case list exported from the EHR (docs/chart-review.md "Sampling"): one row per case under a
 * header. Columns are found by their header, whatever the case or punctuation: the encounter reference (required),
 * the unit and the discharge date (optional; kept as its month only). A header that looks like a patient's name or
 * birth date is refused: chart review never stores them. Every refusal is a 400 on the field `file` naming the rows.
 */

export interface EligibleRow {
  /** Spreadsheet row number (the header is row 1). */
  row: number;
  ref: string;
  unit: string | null;
  /** YYYY-MM-01 or null. */
  dischargeMonth: string | null;
}

/** Header aliases in order of preference (the first column matching the earliest alias wins). */
const REF_ALIASES = [
  'encounter ref',
  'encounter reference',
  'encounter',
  'encounter id',
  'encounter number',
  'encounter no',
  'visit',
  'visit id',
  'visit number',
  'visit no',
  'account',
  'account number',
  'account no',
  'acct',
  'fin',
  'csn',
  'case ref',
  'case reference',
  'mrn',
  'reference',
];
const UNIT_ALIASES = ['unit', 'unit name', 'ward', 'ward name', 'department', 'dept', 'location', 'service'];
const DISCHARGE_ALIASES = [
  'discharge date',
  'discharge',
  'discharged',
  'discharge dt',
  'disch date',
  'date of discharge',
  'discharge month',
];

/** "PatientName" -> "patient name", "encounter_ref" -> "encounter ref". */
export function headerWords(header: string): string {
  return header
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const NAME_HEADER =
  /^(?:(?:patient|pt|first|last|given|family|middle|full|maiden|legal|sur|fore|christian)\s?names?|names?|surname|forename|patient|patient full name|patient first name|patient last name)$/;
const BIRTH_HEADER = /\b(?:dob|birth|births|birthdate|birthday|born|date of birth|birth date)\b/;

/** Whether a header looks like a patient's name or birth date. */
export function isForbiddenHeader(header: string): boolean {
  const words = headerWords(header);
  if (!words) return false;
  return NAME_HEADER.test(words) || BIRTH_HEADER.test(words) || BIRTH_HEADER.test(words.replace(/ /g, ''));
}

const refuse = (message: string): AppError => new AppError('VALIDATION_FAILED', message, { file: [message] });

/** "row 4", "rows 4 and 9", "rows 4, 9, 12, 15 and 20". */
export function rowList(rows: readonly number[]): string {
  if (rows.length === 1) return `row ${rows[0]}`;
  return `rows ${rows.slice(0, -1).join(', ')} and ${rows[rows.length - 1]}`;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function monthOf(year: number, month: number, day = 1): string | null {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > last) return null;
  return `${year}-${String(month).padStart(2, '0')}-01`;
}

/**
 * The month of a discharge date: 2026-03-14, 2026-03-14T10:20, 2026-03, 3/14/2026 (US order), 14.03.2026,
 * 14-Mar-2026 or Mar 2026. Null when it is not a date.
 */
export function dischargeMonthOf(value: string): string | null {
  const text = value.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  if (m) return monthOf(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{4})-(\d{1,2})$/.exec(text);
  if (m) return monthOf(Number(m[1]), Number(m[2]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s.*)?$/.exec(text);
  if (m) return monthOf(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s.*)?$/.exec(text);
  if (m) return monthOf(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[- ]([A-Za-z]{3})[a-z]*[- ](\d{4})$/.exec(text);
  if (m) {
    const month = MONTHS[m[2]!.toLowerCase()];
    return month ? monthOf(Number(m[3]), month, Number(m[1])) : null;
  }
  m = /^([A-Za-z]{3})[a-z]*[ -](\d{4})$/.exec(text);
  if (m) {
    const month = MONTHS[m[1]!.toLowerCase()];
    return month ? monthOf(Number(m[2]), month) : null;
  }
  return null;
}

/** UTF-8 (a byte-order mark dropped), else Windows-1252, as spreadsheets on Windows save CSV. */
function decode(data: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

/** Comma, semicolon or tab: whichever the header line holds most of. */
function delimiterOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => ({ d, n: first.split(d).length - 1 }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0]!.n > 0 ? counts[0]!.d : ',';
}

function findColumn(headers: string[], aliases: string[]): number {
  const words = headers.map(headerWords);
  for (const alias of aliases) {
    const at = words.indexOf(alias);
    if (at >= 0) return at;
  }
  return -1;
}

/**
 * The rows of an eligible-case list, checked: not empty, a reference column, no name or birth-date column, at most
 * 50,000 rows, every row with a reference, no reference twice, discharge dates that are dates, and units among the
 * programme's `units` when it lists any (matched whatever the case; the programme's spelling is kept).
 */
export function readEligibleList(data: Buffer, units: readonly string[]): EligibleRow[] {
  if (looksBinary(data)) throw refuse(NOT_CSV_TEXT);
  const text = decode(data);
  if (text.trim() === '') throw refuse('The file is empty.');
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: false,
      bom: true,
      max_record_size: 100_000,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw refuse(
      `The file could not be read as CSV${line ? ` (near line ${line})` : ''}. Save it as CSV and try again.`,
    );
  }
  const [header = [], ...body] = records;
  const forbidden = header.find((cell) => isForbiddenHeader(cell));
  if (forbidden !== undefined) {
    throw refuse(`Remove the column '${forbidden.trim()}': chart review never stores names or birth dates.`);
  }
  const refAt = findColumn(header, REF_ALIASES);
  if (refAt < 0) {
    throw refuse(
      'The file has no encounter reference column. Name it encounter, encounter_ref, account, visit or mrn.',
    );
  }
  const unitAt = findColumn(header, UNIT_ALIASES);
  const dischargeAt = findColumn(header, DISCHARGE_ALIASES);

  const rows: EligibleRow[] = [];
  body.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    const unit = unitAt >= 0 ? (cells[unitAt] ?? '').trim() : '';
    const discharge = dischargeAt >= 0 ? (cells[dischargeAt] ?? '').trim() : '';
    rows.push({
      row: index + 2,
      ref: (cells[refAt] ?? '').trim(),
      unit: unit || null,
      dischargeMonth: discharge,
    });
  });
  if (rows.length === 0) throw refuse('The file has no cases: put one row per eligible case under the header.');
  if (rows.length > CR_UPLOAD_LIMITS.rows) {
    throw refuse(
      `The file has ${rows.length.toLocaleString('en-US')} cases; at most 50,000 fit in one sample. Split the list by period.`,
    );
  }

  const noRef = rows.filter((row) => row.ref === '').map((row) => row.row);
  if (noRef.length) {
    throw refuse(`The encounter reference is missing on ${rowList(noRef.slice(0, 5))}${more(noRef)}.`);
  }
  const seen = new Set<string>();
  const repeats: number[] = [];
  for (const row of rows) {
    if (seen.has(row.ref)) repeats.push(row.row);
    seen.add(row.ref);
  }
  if (repeats.length) {
    throw refuse(
      `The encounter reference on ${rowList(repeats.slice(0, 5))}${more(repeats)} is already on an earlier row. Each case may appear only once.`,
    );
  }
  const badDates: number[] = [];
  for (const row of rows) {
    const raw = row.dischargeMonth ?? '';
    row.dischargeMonth = raw === '' ? null : dischargeMonthOf(raw);
    if (raw !== '' && row.dischargeMonth === null) badDates.push(row.row);
  }
  if (badDates.length) {
    throw refuse(
      `The discharge date on ${rowList(badDates.slice(0, 5))}${more(badDates)} is not a date (use YYYY-MM-DD).`,
    );
  }
  if (units.length > 0) {
    const known = new Map(units.map((unit) => [unit.toLowerCase(), unit]));
    const unknownRows: number[] = [];
    const unknownUnits = new Set<string>();
    for (const row of rows) {
      if (row.unit === null) continue;
      const unit = known.get(row.unit.toLowerCase());
      if (unit) row.unit = unit;
      else {
        unknownRows.push(row.row);
        unknownUnits.add(row.unit);
      }
    }
    if (unknownRows.length) {
      const names = [...unknownUnits].slice(0, 5).join(', ');
      throw refuse(
        `The unit on ${rowList(unknownRows.slice(0, 5))}${more(unknownRows)} is not one of this programme's units (${names}). The programme covers ${units.join(', ')}.`,
      );
    }
  }
  return rows;
}

const more = (rows: readonly number[]) => (rows.length > 5 ? ` (and ${rows.length - 5} more)` : '');
