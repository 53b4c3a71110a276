// Word import (DESIGN section 1): uploads are recognised by content, the ZIP container is checked by our own
// reader before any unpacking library sees it, and mammoth converts it to HTML. Images go to the caller's store
// and the HTML points at them: never data: URLs. The HTML is not sanitised here (the caller sanitises).
//
// Both the checks and the conversion run in a worker thread (docx-worker.ts). Measured on Node 20.20, 2 CPUs:
// - mammoth parses and converts synchronously. A 1.0 MB generated document (about 5 MB of document XML:
//   headings, paragraphs, bullets, a table every third section) took 0.9-2.0 s per conversion in the main
//   thread, and the event loop was blocked for 0.96-1.9 s of it in one stretch (a 100 KB file: about 150 ms).
// - The checks inflate every part (sizes, checksums, DTDs): 20-40 ms for that file, but 0.6-1.4 s (machine
//   busy with other work) for a 2.5 MB upload that expands to 95 MB, which the limits allow.
// With the worker, the main thread only copies the upload, stores the images and rewrites their src; the
// event-loop delay seen during conversions stays near what an idle loop sees (bench/docx-convert.ts).
// A worker costs some start-up (about 25 ms bare, plus loading mammoth; more under tsx) and gives each
// conversion a memory cap and a time limit.
import { createHash, randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import {
  checkDocx,
  DOCX_LIMITS,
  DOCX_MESSAGES,
  type DocxLimits,
  DocxRefusal,
  type DocxWorkerInput,
  type DocxWorkerOutput,
  isDocxPackage,
} from './docx-worker.js';
import { AppError } from './errors.js';
import { type WorkerModule, workerModule } from './worker-module.js';

export { DOCX_LIMITS, DOCX_MESSAGES, type DocxLimits };

/** Image types kept from a Word file; others are left out with a message. */
export const DOCX_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

const refuse = (message: string) => new AppError('VALIDATION_FAILED', message, { file: [message] });

// ---------------------------------------------------------------- checks

/** What an upload is, by its content (never by its name or declared type). */
export function sniffUpload(data: Buffer): 'docx' | 'pdf' | null {
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  return isDocxPackage(data) ? 'docx' : null;
}

/**
 * Checks a Word file's ZIP container before anything unpacks it: structure (our own reader of the central
 * directory: no ZIP64, one disk, local headers where it says, no overlaps), at most 1000 parts, no unsafe part
 * names, no encryption, at most 100 MB unpacked and 100:1 for parts over 1 MB (zip bombs), and no DTD in any
 * part (external entities). Every part is inflated with a bound of what it declared, so a header that lies
 * about its size cannot make it expand further. Throws a 400 AppError with the message under `file`.
 * It blocks for up to about a second on a large file: convertDocx runs it in its worker.
 */
export function inspectDocx(data: Buffer, limits: Partial<DocxLimits> = {}): void {
  try {
    checkDocx(data, limits);
  } catch (error) {
    if (error instanceof DocxRefusal) throw refuse(error.message);
    throw error;
  }
}

// ---------------------------------------------------------------- conversion

/** mammoth's default map already has Heading 1-6, lists, tables, links and bold; these add common Word styles. */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  "p[style-name='No Spacing'] => p:fresh",
  "p[style-name='Body Text'] => p:fresh",
  "p[style-name='Normal (Web)'] => p:fresh",
  "p[style-name='Caption'] => p:fresh",
  "r[style-name='Emphasis'] => em",
  "r[style-name='Strong Emphasis'] => strong",
];

const MAX_MESSAGES = 20;

/** mammoth's messages in words a policy author understands; null leaves one out. */
function plainMessage(raw: string): string | null {
  let m = raw.match(/^Unrecognised (paragraph|run|table) style: '(.*)' \(Style ID: (.*)\)$/s);
  if (m) {
    // A style with no name is one the file does not define: the "referenced but not defined" note covers it.
    if (m[2] === 'null' || m[2] === 'undefined') return null;
    const kind = m[1] === 'run' ? 'character' : m[1];
    const name = m[2] || m[3];
    return m[1] === 'table'
      ? `The table style "${name}" was not kept; the table itself was.`
      : `The ${kind} style "${name}" has no web equivalent; its text was kept as normal text.`;
  }
  m = raw.match(/^(\w+) style with ID (.*) was referenced but not defined/s);
  if (m) return `The style "${m[2]}" is used but missing from the Word file; its text was kept as normal text.`;
  if (/^Image of type .* is unlikely to display/.test(raw)) return null; // the image converter says what it dropped
  if (/^An unrecognised element was ignored/.test(raw))
    return 'Some content with no web equivalent (such as text boxes, shapes or embedded objects) was left out.';
  if (/^Could not find image file|^A v:imagedata element without a relationship ID/.test(raw))
    return 'An image whose data is missing from the Word file was left out.';
  if (/complex field/.test(raw))
    return 'A damaged field (such as a page number or cross-reference) was ignored; its text was kept.';
  if (/^A w:sym element/.test(raw)) return 'A symbol from a symbol font could not be converted and was left out.';
  if (/^Unsupported break type/.test(raw)) return 'A kind of break with no web equivalent was left out.';
  if (/^unexpected non-(row|cell) element in table/.test(raw))
    return 'A table has an unusual structure; merged cells may look different.';
  const text = raw.trim().replace(/\s+/g, ' ');
  if (!text) return null;
  return `${text[0]!.toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}

function plainMessages(notes: string[], warnings: string[]): string[] {
  const sentences = [...new Set([...notes, ...warnings.map(plainMessage)].filter((s): s is string => !!s))];
  if (sentences.length <= MAX_MESSAGES) return sentences;
  const rest = sentences.length - (MAX_MESSAGES - 1);
  return [...sentences.slice(0, MAX_MESSAGES - 1), `${rest} more notes like these were left out.`];
}

const decodeEntities = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );
const textOf = (html: string) =>
  decodeEntities(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();

/** The first h1's text, else the first non-empty paragraph's, at most 200 characters; else ''. */
function detectTitle(html: string): string {
  const candidates = [/<h1>([\s\S]*?)<\/h1>/g, /<p>([\s\S]*?)<\/p>/g];
  for (const pattern of candidates) {
    for (const match of html.matchAll(pattern)) {
      const text = textOf(match[1]!);
      if (text) return text.slice(0, 200).trim();
    }
  }
  return '';
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

let workerTarget: WorkerModule | undefined;

/** The Word conversion worker beside this module (lib/worker-module.ts says how a worker runs under tsx too). */
function resolveWorker(): WorkerModule {
  workerTarget ??= workerModule(import.meta.url, 'docx-worker');
  return workerTarget;
}

/** At most this many conversions at once (each may use up to WORKER_HEAP_MB of memory). */
const MAX_CONCURRENT = 2;
const WORKER_HEAP_MB = 1024;
let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await task();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

function runWorker(input: DocxWorkerInput, timeoutMs: number): Promise<DocxWorkerOutput> {
  const target = resolveWorker();
  return new Promise((resolve, reject) => {
    const worker = new Worker(target.filename, {
      eval: target.eval,
      workerData: input,
      transferList: [input.data.buffer as ArrayBuffer],
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(refuse(DOCX_MESSAGES.tooSlow))), timeoutMs);
    worker.once('message', (output: DocxWorkerOutput) => settle(() => resolve(output)));
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? refuse(DOCX_MESSAGES.tooComplex) : error)),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`The Word conversion worker stopped (exit code ${code}) without an answer.`))),
    );
  });
}

export interface ConvertedDocx {
  title: string;
  html: string;
  messages: string[];
  /** How many images were stored through storeImage. */
  images: number;
}

/**
 * Checks (inspectDocx) and converts a Word file to unsanitised HTML, in a worker thread. Each kept image is
 * stored through `storeImage` (in this thread), whose answer becomes the image's `src`; the same image used twice
 * is stored once. Refusals are 400 AppErrors with the message under `file`.
 */
export async function convertDocx(
  data: Buffer,
  storeImage: (image: { contentType: string; data: Buffer }) => Promise<string>,
  options: { timeoutMs?: number; limits?: Partial<DocxLimits> } = {},
): Promise<ConvertedDocx> {
  const placeholder = `docx-image-${randomUUID()}-`;
  const input: DocxWorkerInput = {
    kind: 'docx-convert',
    data: new Uint8Array(data), // a copy, transferred to the worker
    limits: options.limits ?? {},
    styleMap: STYLE_MAP,
    imageTypes: [...DOCX_IMAGE_TYPES],
    placeholder,
  };
  // The worker runs the checks of inspectDocx first: mammoth only sees a file they accepted.
  const output = await withSlot(() => runWorker(input, options.timeoutMs ?? 60_000));
  if (!output.ok) throw refuse(output.refusal ?? DOCX_MESSAGES.invalid);

  const sources: string[] = [];
  const stored = new Map<string, string>();
  for (const image of output.images) {
    const bytes = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
    const key = `${image.contentType}:${createHash('sha256').update(bytes).digest('hex')}`;
    let src = stored.get(key);
    if (src === undefined) {
      src = await storeImage({ contentType: image.contentType, data: bytes });
      stored.set(key, src);
    }
    sources.push(src);
  }
  const html = output.html.replace(
    new RegExp(`src="${placeholder}(\\d+)"`, 'g'),
    (_, index: string) => `src="${escapeAttribute(sources[Number(index)] ?? '')}"`,
  );
  return {
    title: detectTitle(html),
    html,
    messages: plainMessages(output.notes, output.warnings),
    images: stored.size,
  };
}
