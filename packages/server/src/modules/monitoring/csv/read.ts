import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { monImportChunks } from '../../../db/schema/index.js';
import { type CsvEncoding, textDecoderFor } from './detect.js';

/**
 * Reads a stored import back as CSV records, piece by piece: the 1 MB chunks are fetched one at a time, decoded with
 * a streaming decoder (a character split between two chunks is kept whole) and written to csv-parse's stream parser;
 * the records of each 64 K-character slice come out as one batch. Memory stays flat whatever the file's size: one chunk, its text
 * and its records.
 */

export interface CsvReadOptions {
  delimiter: string;
  encoding: CsvEncoding;
}

export interface CsvRecord {
  /** Line of the file where the record starts (the header is line 1). */
  line: number;
  cells: string[];
}

/** A value longer than this (an unclosed quote swallowing the file, usually) stops the reading. */
const MAX_RECORD_CHARS = 1_000_000;

/** The file could not be read as CSV with the chosen settings; the message is for people. */
export class CsvReadError extends Error {}

/** The chunks of an import in order, one query each. */
export async function* importChunks(db: DbOrTx, projectId: number, importId: number): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const [chunk] = await db
      .select({ data: monImportChunks.data })
      .from(monImportChunks)
      .where(
        and(
          eq(monImportChunks.projectId, projectId),
          eq(monImportChunks.importId, importId),
          eq(monImportChunks.seq, seq),
        ),
      );
    if (!chunk) return;
    yield chunk.data;
  }
}

/** Text goes to the parser in slices of this many characters: reading a few rows parses little. */
const SLICE_CHARS = 64 * 1024;

async function* decode(chunks: AsyncIterable<Buffer>, encoding: CsvEncoding): AsyncGenerator<string> {
  const decoder = textDecoderFor(encoding);
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    for (let at = 0; at < text.length; at += SLICE_CHARS) yield text.slice(at, at + SLICE_CHARS);
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

const blank = (cells: string[]) => cells.every((cell) => cell.trim() === '');

function newlines(cells: string[]): number {
  let n = 0;
  for (const cell of cells) {
    for (let at = cell.indexOf('\n'); at >= 0; at = cell.indexOf('\n', at + 1)) n++;
  }
  return n;
}

/**
 * The records of the file, a batch per decoded slice. Blank lines and lines of empty values are left out (their
 * lines still count). Line numbers are counted here rather than asked of csv-parse (its `info` option doubles the
 * parsing time): every record takes one line plus the line breaks inside its quoted values. A malformed file throws
 * CsvReadError naming the line. Stopping early (break) releases the parser and the chunk reader.
 */
export async function* readRecordBatches(
  chunks: AsyncIterable<Buffer>,
  options: CsvReadOptions,
): AsyncGenerator<CsvRecord[]> {
  const parser = parse({
    delimiter: options.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  let batch: CsvRecord[] = [];
  let line = 1;
  parser.on('data', (cells: string[]) => {
    if (!blank(cells)) batch.push({ line, cells });
    line += 1 + newlines(cells);
  });
  // Errors reach the write and end callbacks below; this listener only keeps them from being "unhandled".
  parser.on('error', () => {});
  const settle = (start: (done: (error?: Error | null) => void) => void) =>
    new Promise<void>((resolve, reject) => start((error) => (error ? reject(error) : resolve())));
  const source = Readable.from(decode(chunks, options.encoding), { highWaterMark: 1 });
  try {
    for await (const text of source as AsyncIterable<string>) {
      await settle((done) => parser.write(text, done));
      if (batch.length) {
        yield batch;
        batch = [];
      }
    }
    await settle((done) => parser.end(done));
    if (batch.length) yield batch;
  } catch (error) {
    if (error instanceof CsvError) throw new CsvReadError(`The file could not be read as CSV: ${error.message}`);
    throw error;
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/** The records one by one (for reading a few: detection checks, the preview). */
export async function* readRecords(chunks: AsyncIterable<Buffer>, options: CsvReadOptions): AsyncGenerator<CsvRecord> {
  for await (const batch of readRecordBatches(chunks, options)) yield* batch;
}
