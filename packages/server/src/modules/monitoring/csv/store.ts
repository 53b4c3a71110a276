import { createHash } from 'node:crypto';
import type { DbOrTx } from '../../../db/client.js';
import { monImportChunks } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import { DETECT_BYTES } from './detect.js';

/**
 * Stores an upload as it arrives: 1 MB pieces into mon_import_chunks, the SHA-256 and size computed on the way, the
 * file's lines counted, its UTF-8 validity checked and its first 64 KB kept for detection. Never more than one piece
 * and the head are in memory.
 */

export const CHUNK_BYTES = 1024 * 1024;

export interface StoredUpload {
  size: number;
  sha256: string;
  /** The first DETECT_BYTES of the file. */
  head: Buffer;
  utf8Valid: boolean;
  /** Lines outside quoted values that hold more than blanks, delimiters and quotes. */
  lines: number;
}

const QUOTE = 0x22;
const NEWLINE = 0x0a;
/** Bytes that do not make a line count as content: space, tab, CR, the delimiters, the quote. */
const BLANK = new Uint8Array(256);
for (const byte of [0x20, 0x09, 0x0d, 0x2c, 0x3b, 0x7c, QUOTE]) BLANK[byte] = 1;

/**
 * Counts the records of a CSV file from its bytes: a newline inside quotes belongs to a value. Works for UTF-8 and
 * Windows-1252 alike (the quote and newline bytes never occur inside another character).
 */
export class LineCounter {
  lines = 0;
  private inQuotes = false;
  private content = false;
  private offset = 0;

  push(bytes: Buffer): void {
    let { inQuotes, content } = this;
    // A UTF-8 byte order mark is not content.
    const start = this.offset === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    for (let i = start; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (byte === QUOTE) inQuotes = !inQuotes;
      else if (byte === NEWLINE && !inQuotes) {
        if (content) this.lines++;
        content = false;
        continue;
      }
      if (!BLANK[byte]) content = true;
    }
    this.inQuotes = inQuotes;
    this.content = content;
    this.offset += bytes.length;
  }

  end(): number {
    if (this.content) this.lines++;
    this.content = false;
    return this.lines;
  }
}

export function fileTooLarge(maxBytes: number): AppError {
  const limit =
    maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / 1024 / 1024)} MB` : `${Math.round(maxBytes / 1024)} KB`;
  const message = `The file is larger than ${limit}. Split it into smaller files.`;
  return new AppError('PAYLOAD_TOO_LARGE', message, { file: [message] });
}

export async function storeUpload(
  tx: DbOrTx,
  target: { projectId: number; importId: number },
  source: AsyncIterable<Buffer>,
  maxBytes: number,
): Promise<StoredUpload> {
  const hash = createHash('sha256');
  const counter = new LineCounter();
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let utf8Valid = true;
  let size = 0;
  let seq = 0;
  const headParts: Buffer[] = [];
  let headBytes = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;

  const write = async (data: Buffer) => {
    await tx.insert(monImportChunks).values({ projectId: target.projectId, importId: target.importId, seq, data });
    seq++;
  };

  for await (const piece of source) {
    size += piece.length;
    if (size > maxBytes) throw fileTooLarge(maxBytes);
    hash.update(piece);
    counter.push(piece);
    if (utf8Valid) {
      try {
        utf8.decode(piece, { stream: true });
      } catch {
        utf8Valid = false;
      }
    }
    if (headBytes < DETECT_BYTES) {
      const part = piece.subarray(0, DETECT_BYTES - headBytes);
      headParts.push(Buffer.from(part));
      headBytes += part.length;
    }
    pending.push(piece);
    pendingBytes += piece.length;
    while (pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(pending, pendingBytes);
      await write(all.subarray(0, CHUNK_BYTES));
      const rest = all.subarray(CHUNK_BYTES);
      pending = rest.length ? [Buffer.from(rest)] : [];
      pendingBytes = rest.length;
    }
  }
  if (pendingBytes > 0) await write(Buffer.concat(pending, pendingBytes));
  if (utf8Valid) {
    try {
      utf8.decode();
    } catch {
      utf8Valid = false;
    }
  }
  return {
    size,
    sha256: hash.digest('hex'),
    head: Buffer.concat(headParts, headBytes),
    utf8Valid,
    lines: counter.end(),
  };
}
