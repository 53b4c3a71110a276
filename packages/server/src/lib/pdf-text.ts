// Text of an uploaded PDF, for search and for reading beside the original (modules/policies/file-text.service.ts).
// Only the background job calls this, never a request; and the reading itself runs in a worker thread
// (pdf-text-worker.ts), because PDF.js runs in the thread that calls it. Measured on Node 20, 2 busy CPUs, in the
// server's thread: a 200-page text PDF (900,000 characters) held the event loop for 0.75 s in one stretch, still
// 50-85 ms read page by page; one scanned A4 page at 300 dpi held it for 0.7 s (decoding its JPEG: 1.5 s in all,
// then 0.4 s to make the PNG), and took 10 s to recognise. With the worker, the server's thread only passes
// messages: the longest event-loop delay seen while reading either file was 20-40 ms.
// One file at a time in the whole process (the worker and its recognition worker use about 150-250 MB), each
// stopped after its time limit (2 minutes unless the caller says otherwise): the worker is terminated, and with it
// the recognition worker it started. The scanned test fixture (1400x200 pixels) takes about 1.5 s.
import { Worker } from 'node:worker_threads';
import {
  PDF_TEXT_MESSAGES,
  type PdfText,
  type PdfTextWorkerInput,
  type PdfTextWorkerMessage,
} from './pdf-text-worker.js';
import { type WorkerModule, workerModule } from './worker-module.js';

export { PDF_TEXT_MESSAGES, type PdfText };

export interface PdfTextOptions {
  /** Stop reading after this long (default 2 minutes). */
  timeoutMs?: number;
  /** 0 to 100 as pages are read (each change once; the caller decides what to save). */
  onProgress?: (percent: number) => void;
}

/** A PDF the portal could not read; the message is one of PDF_TEXT_MESSAGES, worded for the policy's editors. */
export class PdfTextError extends Error {
  override name = 'PdfTextError';
}

const DEFAULT_TIMEOUT_MS = 2 * 60_000;
/** The worker's own heap (PDF.js's parsed document and decoded images); recognition has a worker of its own. */
const WORKER_HEAP_MB = 512;

let target: WorkerModule | undefined;

// One file at a time in the whole process: the next file waits for the previous one.
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Reads a PDF's text: its text layer page by page, and recognised text for the pages that are scans. Throws a
 * PdfTextError for a damaged, protected, too large or too slow file. An empty text with no error is a PDF with
 * nothing to read (a blank page, a drawing).
 */
export function readPdfText(data: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  return oneAtATime(() => runWorker(data, options));
}

function runWorker(data: Uint8Array, options: PdfTextOptions): Promise<PdfText> {
  target ??= workerModule(import.meta.url, 'pdf-text-worker');
  const input: PdfTextWorkerInput = { kind: 'pdf-text', data: new Uint8Array(data) }; // a copy, transferred
  return new Promise((resolve, reject) => {
    const worker = new Worker(target!.filename, {
      eval: target!.eval,
      workerData: input,
      transferList: [input.data.buffer as ArrayBuffer],
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: true,
      stderr: true,
    });
    // Whatever the libraries print (PDF.js, tesseract.js) is dropped, not mixed into the server's log.
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
      void worker.terminate();
    };
    const fail = (message: string) => settle(() => reject(new PdfTextError(message)));
    const timer = setTimeout(() => fail(PDF_TEXT_MESSAGES.tooSlow), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    worker.on('message', (message: PdfTextWorkerMessage) => {
      if (message.type === 'progress') {
        if (!settled) options.onProgress?.(message.percent);
      } else if (message.type === 'done') settle(() => resolve(message.result));
      else fail(message.message);
    });
    worker.once('error', (error: Error & { code?: string }) =>
      fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? PDF_TEXT_MESSAGES.tooLarge : PDF_TEXT_MESSAGES.unreadable),
    );
    worker.once('exit', () => fail(PDF_TEXT_MESSAGES.unreadable));
  });
}
