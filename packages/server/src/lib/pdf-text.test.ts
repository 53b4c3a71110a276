import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PDF_TEXT_MESSAGES, PdfTextError, readPdfText } from './pdf-text.js';

// No database: real PDFs from test/fixtures (made with pdfkit; see docs/policies.md). The recognition of a scanned
// page is tested once, through upload and search, in modules/policies/file-text.test.ts.
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url)));

describe('readPdfText', () => {
  it('reads the text layer page by page, reporting progress up to 100', async () => {
    const seen: number[] = [];
    const result = await readPdfText(fixture('policy-text.pdf'), { onProgress: (percent) => seen.push(percent) });
    expect(result).toMatchObject({ method: 'pdf_text', pages: 2 });
    expect(result.text).toContain('inspected on a quinquennial schedule');
    expect(result.text).toContain('Page two: records are kept for ten years.');
    expect(seen.at(-1)).toBe(100);
  });

  it('answers an empty text, without error, for a page with nothing on it', async () => {
    expect(await readPdfText(fixture('policy-blank.pdf'))).toEqual({ method: 'pdf_text', pages: 1, text: '' });
  });

  it('refuses a damaged file in words', async () => {
    const failure = await readPdfText(fixture('policy-corrupt.pdf')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PdfTextError);
    expect((failure as Error).message).toBe(PDF_TEXT_MESSAGES.unreadable);
  });

  it('stops a file that takes longer than its time limit, and the next file is still read', async () => {
    const failure = await readPdfText(fixture('policy-scanned.pdf'), { timeoutMs: 5 }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(PDF_TEXT_MESSAGES.tooSlow);
    expect((await readPdfText(fixture('policy-text.pdf'))).pages).toBe(2);
  });
});
