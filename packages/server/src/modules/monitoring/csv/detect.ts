import {
  DATE_FORMATS,
  type DatasetColumn,
  type DatasetColumnType,
  type DateFormat,
  type ImportDetected,
} from '@portal/shared';
import { parse } from 'csv-parse/sync';
import { keyFromHeader, uniqueKey } from './keys.js';
import { phiKind } from './phi.js';
import { isNullCell, parseBoolean, parseDate, parseNumber } from './values.js';
import { decodeWindows1252 } from './windows-1252.js';

/**
 * What an uploaded CSV file looks like, read from its first bytes (DOMAIN.md 1.4): encoding, delimiter, header row,
 * a type per column, the date format (or the formats to choose from when the dates are ambiguous, 03/04/2026),
 * suggested column keys and the columns that look like patient identifiers. The person confirms or changes all of
 * it in the import settings.
 */

/** Detection reads this much of the file. */
export const DETECT_BYTES = 64 * 1024;
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvEncoding = ImportDetected['encoding'];

/** Rows of the head that decide column types (and at most SAMPLE_ROWS of them are shown). */
const TYPE_ROWS = 1_000;
const SAMPLE_ROWS = 20;
const TIME_WORDS = /date|period|month|week|quarter|year|day|time/i;

export function detectEncoding(head: Buffer, utf8Valid: boolean): CsvEncoding {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8-bom';
  return utf8Valid ? 'utf-8' : 'windows-1252';
}

/** Decodes a file piece by piece (a UTF-8 character split between two pieces is kept whole; the BOM is dropped). */
export interface ChunkDecoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

export function textDecoderFor(encoding: CsvEncoding): ChunkDecoder {
  if (encoding !== 'windows-1252') return new TextDecoder('utf-8');
  return { decode: (input) => (input ? decodeWindows1252(input) : '') };
}

/** The head as text, ending at its last complete line when the file goes on. */
export function headText(head: Buffer, encoding: CsvEncoding, complete: boolean): string {
  const text = textDecoderFor(encoding).decode(head, { stream: !complete });
  if (complete) return text;
  const end = text.lastIndexOf('\n');
  return end < 0 ? '' : text.slice(0, end + 1);
}

/** The records of some CSV text; when a quoted value runs past the text's end, the text is cut shorter. */
export function parseText(text: string, delimiter: string): string[][] {
  let body = text;
  for (let attempt = 0; attempt < 5 && body; attempt++) {
    try {
      return parse(body, {
        delimiter,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        skip_records_with_empty_values: true,
      }) as string[][];
    } catch {
      const cut = body.lastIndexOf('\n', Math.floor(body.length * 0.75));
      body = cut < 0 ? '' : body.slice(0, cut + 1);
    }
  }
  return [];
}

/** The delimiter that splits the most lines into the same number (at least 2) of fields; ',' otherwise. */
export function detectDelimiter(text: string): string {
  let best: { delimiter: string; consistency: number; fields: number } = { delimiter: ',', consistency: 0, fields: 1 };
  for (const delimiter of DELIMITERS) {
    const records = parseText(text, delimiter).slice(0, 200);
    if (records.length === 0) continue;
    const counts = new Map<number, number>();
    for (const record of records) counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
    const [fields, times] = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    if (fields < 2) continue;
    const consistency = times / records.length;
    if (consistency > best.consistency || (consistency === best.consistency && fields > best.fields)) {
      best = { delimiter, consistency, fields };
    }
  }
  return best.delimiter;
}

const looksLikeData = (cell: string) =>
  !isNullCell(cell) && (parseNumber(cell) !== null || DATE_FORMATS.some((format) => parseDate(cell, format)));

/** A first row with a number or a date in it is data; otherwise it names the columns. */
export const detectHeader = (records: string[][]) =>
  records.length > 0 && !records[0]!.some((cell) => looksLikeData(cell));

/** The type every non-null value of a column fits, and the date formats that read all of them. */
export function columnType(values: string[]): { type: DatasetColumnType; formats: DateFormat[] } {
  const cells = values.filter((cell) => !isNullCell(cell));
  if (cells.length === 0) return { type: 'text', formats: [] };
  if (cells.every((cell) => parseBoolean(cell) !== null)) return { type: 'boolean', formats: [] };
  if (cells.every((cell) => parseNumber(cell) !== null)) return { type: 'number', formats: [] };
  const formats = DATE_FORMATS.filter((format) => cells.every((cell) => parseDate(cell, format) !== null));
  return formats.length > 0 ? { type: 'date', formats } : { type: 'text', formats: [] };
}

export interface DetectInput {
  /** The first DETECT_BYTES of the file (or all of it). */
  head: Buffer;
  /** The head is the whole file. */
  complete: boolean;
  /** The whole file decodes as UTF-8 (checked while it was stored). */
  utf8Valid: boolean;
  /** Non-empty lines of the file outside quoted values (counted while it was stored). */
  lines: number;
  /** The dataset's columns: matching headers keep their key, label and type. */
  existing: readonly DatasetColumn[];
  existingTimeColumn: string | null;
}

export function detectCsv(input: DetectInput): ImportDetected {
  const encoding = detectEncoding(input.head, input.utf8Valid);
  const text = headText(input.head, encoding, input.complete);
  const delimiter = detectDelimiter(text);
  const records = parseText(text, delimiter);
  const hasHeader = detectHeader(records);
  const data = records.slice(hasHeader ? 1 : 0);
  const width = Math.max(0, ...records.slice(0, TYPE_ROWS + 1).map((record) => record.length));
  const headers = Array.from({ length: width }, (_, i) =>
    hasHeader ? (records[0]![i] ?? '').trim() || `Column ${i + 1}` : `Column ${i + 1}`,
  );

  const taken = new Set<string>();
  const typed = data.slice(0, TYPE_ROWS);
  const formatsByColumn: DateFormat[][] = [];
  const columns = headers.map((header, source) => {
    const found = columnType(typed.map((record) => record[source] ?? ''));
    const suggested = keyFromHeader(header, source);
    const match = input.existing.find(
      (column) =>
        !taken.has(column.key) &&
        (column.label.trim().toLowerCase() === header.toLowerCase() || column.key === suggested),
    );
    const looksPhi = phiKind(header) !== null;
    if (match) {
      taken.add(match.key);
      if (match.type === 'date') formatsByColumn.push(found.type === 'date' ? found.formats : []);
      return { source, header, key: match.key, label: match.label, type: match.type, phi: match.phi || looksPhi };
    }
    if (found.type === 'date') formatsByColumn.push(found.formats);
    return {
      source,
      header,
      key: uniqueKey(suggested, taken),
      label: header.slice(0, 120),
      type: found.type,
      phi: looksPhi,
    };
  });

  const dateColumns = columns.filter((column) => column.type === 'date');
  const timeColumn =
    dateColumns.find((column) => column.key === input.existingTimeColumn) ??
    dateColumns.find((column) => TIME_WORDS.test(column.header)) ??
    dateColumns[0] ??
    null;
  // One date format serves the whole file: the formats every date column fits, else those of the time column.
  const withValues = formatsByColumn.filter((formats) => formats.length > 0);
  let formats = withValues.length
    ? DATE_FORMATS.filter((format) => withValues.every((list) => list.includes(format)))
    : [];
  if (formats.length === 0 && timeColumn) {
    formats = columnType(typed.map((record) => record[timeColumn.source] ?? '')).formats;
  }

  return {
    delimiter,
    encoding,
    has_header: hasHeader,
    headers,
    date_format: formats.length === 1 ? formats[0]! : null,
    date_format_choices: formats.length > 1 ? formats : [],
    columns,
    time_column: timeColumn?.key ?? null,
    sample: data.slice(0, SAMPLE_ROWS),
    row_count: Math.max(0, input.lines - (hasHeader ? 1 : 0)),
  };
}
