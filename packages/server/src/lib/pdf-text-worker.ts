// The reading of a PDF's text, in a worker thread started by pdf-text.ts (see there for why), kept free of the
// server's other modules. The text layer is read with unpdf (PDF.js); a page with (almost) no text is taken for a
// scan, and its images are read by optical character recognition: tesseract.js, with the English data that
// @tesseract.js-data/eng ships in node_modules, so nothing is ever downloaded. It posts progress (0-100) and then
// the text, or a refusal in words.
import { createRequire } from 'node:module';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { PNG } from 'pngjs';
import { createWorker, type Worker } from 'tesseract.js';
import { extractImages, getDocumentProxy } from 'unpdf';

export interface PdfText {
  /** pdf_text: the PDF's own text; ocr: some of it was recognised from page images. */
  method: 'pdf_text' | 'ocr';
  pages: number;
  /** The pages' text, a blank line between pages; empty when there was nothing to read. */
  text: string;
}

/** Why a PDF could not be read, worded for the policy's editors. */
export const PDF_TEXT_MESSAGES = {
  unreadable: 'This file could not be opened as a PDF: it may be damaged or not really a PDF.',
  encrypted: 'This PDF is protected by a password, so its text could not be read. Upload a copy without a password.',
  tooSlow: 'Reading the text of this PDF took too long and was stopped.',
  tooLarge: 'This PDF needs more memory to read than the portal allows: split it into smaller files.',
} as const;

export interface PdfTextWorkerInput {
  kind: 'pdf-text';
  data: Uint8Array;
}

export type PdfTextWorkerMessage =
  | { type: 'progress'; percent: number }
  | { type: 'done'; result: PdfText }
  | { type: 'failed'; message: string };

/** A page with fewer letters and digits than this is taken for a scanned page. */
const MIN_PAGE_CHARACTERS = 20;
/** Images smaller than this (logos, rules, bullets) hold no sentence worth reading. */
const MIN_IMAGE_SIDE = 32;
/** Larger images are left out: their pixels alone would take hundreds of megabytes. */
const MAX_IMAGE_PIXELS = 40_000_000;

const eng = createRequire(import.meta.url)('@tesseract.js-data/eng') as {
  code: string;
  langPath: string;
  gzip: boolean;
};

// Control characters out (search snippets use two of them to mark matches, and PostgreSQL refuses NUL).
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const tidy = (text: string) =>
  text
    .replace(CONTROL, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
const readable = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length;

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** A page's text as unpdf's extractText reads it (a line break where PDF.js sees a line end). */
async function pageText(pdf: PdfDocument, number: number): Promise<string> {
  const content = await (await pdf.getPage(number)).getTextContent();
  return content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
}

/** An image as PDF.js hands it (1 to 4 channels of 8 bits) as a grey PNG, the form tesseract.js reads. */
function toPng(image: { data: Uint8ClampedArray; width: number; height: number; channels: number }): Buffer {
  const png = new PNG({
    width: image.width,
    height: image.height,
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
  });
  const { data, channels } = image;
  const grey = Buffer.alloc(image.width * image.height);
  for (let pixel = 0, at = 0; pixel < grey.length; pixel++, at += channels) {
    // Luma from RGB; a transparent pixel counts as white paper.
    const value = channels >= 3 ? (data[at]! * 299 + data[at + 1]! * 587 + data[at + 2]! * 114) / 1000 : data[at]!;
    grey[pixel] = channels === 4 || channels === 2 ? 255 - (data[at + channels - 1]! * (255 - value)) / 255 : value;
  }
  png.data = grey;
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false });
}

/** A recognition worker with the English data from node_modules: never the network, never a cache file. */
function startRecognition(onShare: (share: number) => void): Promise<Worker> {
  return createWorker(eng.code, 1, {
    langPath: eng.langPath,
    gzip: eng.gzip,
    cacheMethod: 'none',
    logger: (message) => {
      if (message.status === 'recognizing text') onShare(message.progress);
    },
  });
}

/** Reads the text layer page by page, then recognises the images of the pages that are scans. */
export async function readPdf(data: Uint8Array, progress: (percent: number) => void): Promise<PdfText> {
  let pdf: PdfDocument;
  try {
    // Verbosity 0: PDF.js's warnings would go to the console.
    pdf = await getDocumentProxy(data, { verbosity: 0 });
  } catch (error) {
    const encrypted = (error as Error)?.name === 'PasswordException';
    throw new Error(encrypted ? PDF_TEXT_MESSAGES.encrypted : PDF_TEXT_MESSAGES.unreadable);
  }
  let recognition: Worker | undefined;
  try {
    const totalPages = pdf.numPages;
    const pages: string[] = [];
    for (let number = 1; number <= totalPages; number++) {
      pages.push(tidy(await pageText(pdf, number)));
      progress(Math.round((10 * number) / totalPages));
    }
    const scanned = pages.flatMap((page, index) => (readable(page) < MIN_PAGE_CHARACTERS ? [index] : []));
    let recognised = false;
    let pagesDone = 0;
    const scannedShare = (pagesRead: number) =>
      progress(Math.min(99, Math.round(10 + (89 * pagesRead) / scanned.length)));
    for (const index of scanned) {
      const images = (await extractImages(pdf, index + 1)).filter(
        (image) =>
          image.width >= MIN_IMAGE_SIDE &&
          image.height >= MIN_IMAGE_SIDE &&
          image.width * image.height <= MAX_IMAGE_PIXELS,
      );
      const parts: string[] = [];
      for (const image of images) {
        // Started once, for the first scanned page; its progress is a share of the page being read (`pagesDone`).
        recognition ??= await startRecognition((share) => scannedShare(pagesDone + share));
        parts.push(tidy((await recognition.recognize(toPng(image))).data.text));
      }
      const found = parts.filter(Boolean).join('\n\n');
      if (readable(found) > readable(pages[index]!)) {
        pages[index] = found;
        recognised = true;
      }
      pagesDone += 1;
      scannedShare(pagesDone);
    }
    progress(100);
    return { method: recognised ? 'ocr' : 'pdf_text', pages: totalPages, text: pages.filter(Boolean).join('\n\n') };
  } finally {
    await recognition?.terminate().catch(() => undefined);
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}

// Only in a worker started by readPdfText (a test runner's own worker threads import this file too).
if (!isMainThread && parentPort && (workerData as Partial<PdfTextWorkerInput> | null)?.kind === 'pdf-text') {
  const port = parentPort;
  const post = (message: PdfTextWorkerMessage) => port.postMessage(message);
  let last = -1;
  readPdf((workerData as PdfTextWorkerInput).data, (percent) => {
    if (percent === last) return;
    last = percent;
    post({ type: 'progress', percent });
  }).then(
    (result) => post({ type: 'done', result }),
    (error: unknown) => {
      const message = String((error as Error)?.message ?? '');
      const known = (Object.values(PDF_TEXT_MESSAGES) as string[]).includes(message);
      post({ type: 'failed', message: known ? message : PDF_TEXT_MESSAGES.unreadable });
    },
  );
}
