import { Readable } from 'node:stream';
import { csvField } from './csv.js';

/**
 * CSV files the server streams (dataset rows, import error reports, series). Every text cell goes through csvField
 * (lib/csv.ts), which quotes per RFC 4180 and prefixes ' to a cell starting with = + - @, TAB or CR so a spreadsheet
 * never runs it as a formula (OWASP CSV injection). A cell holding a JavaScript number is written as the number:
 * its text is digits, sign, point and exponent only, so it cannot carry a formula, and -3 stays a number in the
 * spreadsheet.
 */

export function csvCell(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return csvField(value);
}

/** One CSV line with its CRLF end. */
export const csvLine = (cells: readonly unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * A CSV file as a stream: the header, then the rows as the source yields them (in batches, so memory stays flat
 * for any number of rows). Destroying the stream (the client went away) ends the source.
 */
export function csvStream(header: readonly string[], rows: AsyncIterable<readonly (readonly unknown[])[]>): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(header);
    for await (const batch of rows) {
      if (batch.length) yield batch.map(csvLine).join('');
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** Headers of a CSV download. */
export const csvHeaders = (fileName: string) => ({
  'content-type': 'text/csv; charset=utf-8',
  'content-disposition': `attachment; filename="${fileName}"`,
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
});
