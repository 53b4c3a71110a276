// The Word file checks and the conversion, kept free of the server's other modules (this file is loaded by a
// worker thread for every conversion, and @portal/shared alone takes 100+ ms to load). docx.ts wraps the checks
// for the main thread and starts the worker (see there for the measurements that made it a worker).
// In the worker: checkDocx first, so mammoth never sees a file it refused, then mammoth (docx to HTML). It posts
// back the HTML with a placeholder `src` for each image, and the image bytes, so that storing them (a database
// write) stays in the main thread.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';

export interface DocxLimits {
  /** Most parts (ZIP entries) a Word file may have. */
  maxEntries: number;
  /** Most bytes all parts may declare together once unpacked. */
  maxTotalUncompressedBytes: number;
  /** Highest unpacked : packed ratio of a part larger than `ratioCheckAboveBytes`. */
  maxRatio: number;
  ratioCheckAboveBytes: number;
}

export const DOCX_LIMITS: DocxLimits = {
  maxEntries: 1000,
  maxTotalUncompressedBytes: 100 * 1024 * 1024,
  maxRatio: 100,
  ratioCheckAboveBytes: 1024 * 1024,
};

/** The refusals, worded for the person who uploaded the file. */
export const DOCX_MESSAGES = {
  invalid: 'The file is not a valid Word document.',
  tooManyParts: (max: number) => `The Word file has too many parts (more than ${max}).`,
  zipBomb: 'The Word file expands to too much data; it looks like a zip bomb.',
  entities: 'The Word file contains external entities, which are not allowed.',
  unsafeName: 'The Word file contains a part with an unsafe name.',
  encrypted: 'The Word file is encrypted. Remove the password in Word and upload it again.',
  tooComplex: 'The Word file is too large or complex to convert.',
  tooSlow: 'The Word file took too long to convert.',
} as const;

/** A refusal of checkDocx; its message is one of DOCX_MESSAGES. */
export class DocxRefusal extends Error {
  override name = 'DocxRefusal';
}

// ---------------------------------------------------------------- the ZIP container

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const END_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const SIG_ZIP64_LOCATOR = 0x07064b50;
const END_SIZE = 22;
const MAX_COMMENT = 0xffff;

interface CentralEntry {
  name: string;
  rawName: Buffer;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/**
 * Reads the End Of Central Directory record and the central directory. Refuses ZIP64, multi-disk archives,
 * anything that does not add up, and more than `maxEntries` entries (before reading them).
 */
function readCentralDirectory(data: Buffer, maxEntries: number): { entries: CentralEntry[]; directoryOffset: number } {
  if (data.length < END_SIZE) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  // The record is the last thing in the file, followed only by its comment (at most 64 KiB).
  const tailStart = Math.max(0, data.length - (MAX_COMMENT + END_SIZE));
  const found = data.subarray(tailStart).lastIndexOf(END_SIGNATURE, -END_SIZE);
  if (found < 0) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  const end = tailStart + found;
  const disk = data.readUInt16LE(end + 4);
  const directoryDisk = data.readUInt16LE(end + 6);
  const entriesOnDisk = data.readUInt16LE(end + 8);
  const total = data.readUInt16LE(end + 10);
  const directorySize = data.readUInt32LE(end + 12);
  const directoryOffset = data.readUInt32LE(end + 16);
  const commentLength = data.readUInt16LE(end + 20);
  if (end + END_SIZE + commentLength !== data.length) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  // ZIP64 markers, a ZIP64 locator, or several disks: Word never writes these for a document we could accept.
  if ([disk, directoryDisk, entriesOnDisk, total].includes(0xffff)) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  if (directorySize === 0xffffffff || directoryOffset === 0xffffffff) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  if (end >= 20 && data.readUInt32LE(end - 20) === SIG_ZIP64_LOCATOR) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== total) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  if (total > maxEntries) throw new DocxRefusal(DOCX_MESSAGES.tooManyParts(maxEntries));
  if (directoryOffset + directorySize !== end) throw new DocxRefusal(DOCX_MESSAGES.invalid);

  const entries: CentralEntry[] = [];
  let p = directoryOffset;
  for (let i = 0; i < total; i++) {
    if (p + 46 > end || data.readUInt32LE(p) !== SIG_CENTRAL) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    const flags = data.readUInt16LE(p + 8);
    const method = data.readUInt16LE(p + 10);
    const crc = data.readUInt32LE(p + 16);
    const compressedSize = data.readUInt32LE(p + 20);
    const size = data.readUInt32LE(p + 24);
    const nameLength = data.readUInt16LE(p + 28);
    const extraLength = data.readUInt16LE(p + 30);
    const commentLen = data.readUInt16LE(p + 32);
    const startDisk = data.readUInt16LE(p + 34);
    const localOffset = data.readUInt32LE(p + 42);
    if ([compressedSize, size, localOffset].includes(0xffffffff) || startDisk !== 0)
      throw new DocxRefusal(DOCX_MESSAGES.invalid);
    const next = p + 46 + nameLength + extraLength + commentLen;
    if (next > end) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    const rawName = data.subarray(p + 46, p + 46 + nameLength);
    // Bit 11: the name is UTF-8; otherwise code page 437, of which only the ASCII part matters to the checks.
    const name = rawName.toString(flags & 0x800 ? 'utf8' : 'latin1');
    entries.push({ name, rawName, flags, method, crc, compressedSize, size, localOffset });
    p = next;
  }
  if (p !== end) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  return { entries, directoryOffset };
}

const REQUIRED_PARTS = ['[Content_Types].xml', 'word/document.xml'];

/** A ZIP whose central directory names the parts every Word document has. */
export function isDocxPackage(data: Buffer): boolean {
  if (data.length < 4 || data.readUInt32LE(0) !== SIG_LOCAL) return false;
  try {
    const names = new Set(readCentralDirectory(data, 0xffff).entries.map((entry) => entry.name));
    return REQUIRED_PARTS.every((part) => names.has(part));
  } catch {
    return false;
  }
}

/** A DOCTYPE or ENTITY declaration anywhere in the part (also in UTF-16 text). */
function declaresEntities(part: Buffer): boolean {
  const b0 = part[0];
  const b1 = part[1];
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0x3c && b1 === 0x00))
    return /<!(doctype|entity)/i.test(part.toString('utf16le'));
  if ((b0 === 0xfe && b1 === 0xff) || (b0 === 0x00 && b1 === 0x3c)) {
    const swapped = Buffer.from(part.subarray(0, part.length - (part.length % 2))).swap16();
    return /<!(doctype|entity)/i.test(swapped.toString('utf16le'));
  }
  for (let i = part.indexOf('<!'); i !== -1; i = part.indexOf('<!', i + 2)) {
    const word = part.toString('latin1', i + 2, i + 9).toLowerCase();
    if (word.startsWith('doctype') || word.startsWith('entity')) return true;
  }
  return false;
}

/**
 * Checks a Word file's ZIP container before anything unpacks it: structure, part names, encryption, sizes
 * (zip bombs) and DTDs (external entities). Every part is inflated here with a bound of what it declared, so a
 * header that lies about its size cannot make it expand further. Throws a DocxRefusal; returns nothing.
 */
export function checkDocx(data: Buffer, limits: Partial<DocxLimits> = {}): void {
  const { maxEntries, maxTotalUncompressedBytes, maxRatio, ratioCheckAboveBytes } = { ...DOCX_LIMITS, ...limits };
  if (data.length < 4 || data.readUInt32LE(0) !== SIG_LOCAL) throw new DocxRefusal(DOCX_MESSAGES.invalid);
  const { entries, directoryOffset } = readCentralDirectory(data, maxEntries);

  let total = 0;
  const names = new Set<string>();
  for (const entry of entries) {
    const path = entry.name.replaceAll('\\', '/');
    if (
      path === '' ||
      path.includes('\0') ||
      path.startsWith('/') ||
      /^[A-Za-z]:/.test(path) ||
      path.split('/').some((segment) => segment === '..')
    )
      throw new DocxRefusal(DOCX_MESSAGES.unsafeName);
    if (names.has(entry.name)) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    names.add(entry.name);
    if (entry.flags & 0x1) throw new DocxRefusal(DOCX_MESSAGES.encrypted);
    if (entry.method !== 0 && entry.method !== 8) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    if (entry.method === 0 && entry.compressedSize !== entry.size) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    total += entry.size;
    if (entry.size > ratioCheckAboveBytes && entry.size > entry.compressedSize * maxRatio)
      throw new DocxRefusal(DOCX_MESSAGES.zipBomb);
  }
  if (total > maxTotalUncompressedBytes) throw new DocxRefusal(DOCX_MESSAGES.zipBomb);
  if (!REQUIRED_PARTS.every((part) => names.has(part))) throw new DocxRefusal(DOCX_MESSAGES.invalid);

  // Local headers: where the central directory says, naming the same part, with the data before the directory
  // and no two entries sharing bytes (overlapping entries are how the smallest zip bombs are built).
  const located = entries.map((entry) => {
    const at = entry.localOffset;
    if (at + 30 > directoryOffset || data.readUInt32LE(at) !== SIG_LOCAL) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    const flags = data.readUInt16LE(at + 6);
    const method = data.readUInt16LE(at + 8);
    const nameLength = data.readUInt16LE(at + 26);
    const extraLength = data.readUInt16LE(at + 28);
    if (flags & 0x1) throw new DocxRefusal(DOCX_MESSAGES.encrypted);
    if (method !== entry.method) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    if (!data.subarray(at + 30, at + 30 + nameLength).equals(entry.rawName))
      throw new DocxRefusal(DOCX_MESSAGES.invalid);
    const start = at + 30 + nameLength + extraLength;
    const stop = start + entry.compressedSize;
    if (stop > directoryOffset) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    return { entry, start, stop };
  });
  let previousStop = 0;
  for (const item of [...located].sort((a, b) => a.entry.localOffset - b.entry.localOffset)) {
    if (item.entry.localOffset < previousStop) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    previousStop = item.stop;
  }

  for (const { entry, start, stop } of located) {
    const packed = data.subarray(start, stop);
    let part: Buffer;
    if (entry.method === 0) part = packed;
    else {
      try {
        part = zlib.inflateRawSync(packed, { maxOutputLength: entry.size + 1 });
      } catch {
        throw new DocxRefusal(DOCX_MESSAGES.invalid);
      }
    }
    if (part.length !== entry.size || zlib.crc32(part) !== entry.crc) throw new DocxRefusal(DOCX_MESSAGES.invalid);
    // Every part, not only *.xml and *.rels: a relationship can point mammoth at a part of any name.
    if (declaresEntities(part)) throw new DocxRefusal(DOCX_MESSAGES.entities);
  }
}

// ---------------------------------------------------------------- conversion (in the worker)

export interface DocxWorkerInput {
  kind: 'docx-convert';
  data: Uint8Array;
  limits: Partial<DocxLimits>;
  styleMap: string[];
  imageTypes: string[];
  /** `src` of the n-th image is `${placeholder}${n}`. */
  placeholder: string;
}

export type DocxWorkerOutput =
  | {
      ok: true;
      html: string;
      /** mammoth's own messages, as it words them. */
      warnings: string[];
      /** Plain sentences about images that were left out. */
      notes: string[];
      images: { contentType: string; data: Uint8Array<ArrayBuffer> }[];
    }
  /** `refusal`: checkDocx's message; otherwise mammoth could not read the file. */
  | { ok: false; refusal?: string; message: string };

/** The error an image converter throws to leave an image out; mammoth then records it and drops the image. */
const DROPPED = 'docx-worker: image left out';

async function convert(input: DocxWorkerInput): Promise<DocxWorkerOutput> {
  const buffer = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  try {
    checkDocx(buffer, input.limits);
  } catch (error) {
    if (error instanceof DocxRefusal) return { ok: false, refusal: error.message, message: error.message };
    throw error;
  }
  // Loaded here, not at the top: the main thread imports this file for the checks and never needs mammoth.
  const { default: mammoth } = await import('mammoth');
  const allowed = new Set(input.imageTypes);
  const images: { contentType: string; data: Uint8Array<ArrayBuffer> }[] = [];
  const notes: string[] = [];
  const convertImage = mammoth.images.imgElement(async (image) => {
    if (!allowed.has(image.contentType)) {
      notes.push(
        `An image of type ${image.contentType || 'unknown'} was left out: only PNG, JPEG, GIF and WebP images are kept.`,
      );
      throw new Error(DROPPED);
    }
    let data: Uint8Array<ArrayBuffer>;
    try {
      // A fresh copy with an ArrayBuffer of its own, so it can be transferred (Buffers may share a pool).
      data = new Uint8Array(await image.readAsBuffer());
    } catch (error) {
      notes.push(
        /external/i.test(String((error as Error).message))
          ? 'A linked image (kept outside the Word file) was left out: only images stored in the file are kept.'
          : 'An image could not be read from the Word file and was left out.',
      );
      throw new Error(DROPPED);
    }
    const index = images.push({ contentType: image.contentType, data }) - 1;
    return { src: `${input.placeholder}${index}` };
  });
  const result = await mammoth.convertToHtml(
    { buffer },
    {
      styleMap: input.styleMap,
      // A style map embedded in the file could turn paragraphs into any element; only ours is used.
      includeEmbeddedStyleMap: false,
      externalFileAccess: false,
      convertImage,
    },
  );
  return {
    ok: true,
    html: result.value,
    warnings: result.messages.filter((m) => m.message !== DROPPED).map((m) => m.message),
    notes,
    images,
  };
}

// Only in a worker started by convertDocx (a test runner's own worker threads import this file too).
if (!isMainThread && parentPort && (workerData as Partial<DocxWorkerInput> | null)?.kind === 'docx-convert') {
  const port = parentPort;
  convert(workerData as DocxWorkerInput).then(
    (output) => {
      const transfer = output.ok ? output.images.map((image) => image.data.buffer) : [];
      port.postMessage(output, transfer);
    },
    (error: unknown) => port.postMessage({ ok: false, message: String((error as Error)?.message ?? error) }),
  );
}
