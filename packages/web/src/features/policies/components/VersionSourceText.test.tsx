import type { PolicyVersion, SourceText } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { render, text, waitFor } from '../../../test/render';
import { textParagraphs, VersionSourceText } from './VersionSourceText';

const API = '/api/projects/1/policy-management';
const TEXT_API = `${API}/documents/5/versions/12/source-text`;

function version(sourceFile: PolicyVersion['source_file']): PolicyVersion {
  return {
    id: 12,
    version: 2,
    state: 'draft',
    change_summary: '',
    effective_on: null,
    author: null,
    created_at: '2026-01-10T10:00:00.000Z',
    updated_at: '2026-01-10T10:00:00.000Z',
    source_file: sourceFile,
    content: '',
    revision: 0,
  };
}
const PDF_VERSION = version({ id: 77, name: 'Falls prevention.pdf', content_type: 'application/pdf' });

const answer = (fields: Partial<SourceText>): SourceText => ({
  state: 'done',
  method: 'pdf_text',
  progress: 100,
  pages: 2,
  error: null,
  text: '',
  ...fields,
});

const show = (v: PolicyVersion = PDF_VERSION) => render(<VersionSourceText projectId="1" documentId="5" version={v} />);
const panel = () => document.querySelector('section[aria-labelledby]');

describe('textParagraphs', () => {
  it('starts a paragraph at each blank line and drops empty ones', () => {
    expect(textParagraphs('One\nline two\n\n \n\nThree\n')).toEqual(['One\nline two', 'Three']);
    expect(textParagraphs('  \n ')).toEqual([]);
  });
});

describe('VersionSourceText', () => {
  it('shows nothing for a version without a PDF, and asks the server nothing', async () => {
    const api = stubApi({});
    await show(version(null));
    await show(
      version({
        id: 3,
        name: 'a.docx',
        content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    );
    expect(panel()).toBeNull();
    expect(api.requests).toHaveLength(0);
  });

  it('shows progress while the PDF is read, asks again, then shows the text as paragraphs', async () => {
    const api = stubApi({
      [`GET ${TEXT_API}`]: [
        jsonResponse(answer({ state: 'reading', method: null, progress: 40, pages: null })),
        jsonResponse(answer({ text: 'Falls prevention\nfor every ward.\n\nCall for help first.' })),
      ],
    });
    await show();
    await waitFor(() => expect(text(panel()!)).toContain('Reading the text of this PDF… 40%'));
    expect(document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('40');
    const link = panel()!.querySelector<HTMLAnchorElement>('a[download]')!;
    expect(link.getAttribute('href')).toBe(`${API}/files/77`);
    expect(text(link)).toBe('Download the original PDF (Falls prevention.pdf)');

    await waitFor(() => expect(document.querySelector('[data-testid="source-text"]')).not.toBeNull(), 6000);
    const paragraphs = [...document.querySelectorAll('[data-testid="source-text"] p')].map((p) => p.textContent);
    expect(paragraphs).toEqual(['Falls prevention\nfor every ward.', 'Call for help first.']);
    expect(text(panel()!)).toContain('2 pages');
    expect(text(panel()!)).not.toContain('text recognition');
    expect(api.calls(`GET ${TEXT_API}`)).toHaveLength(2);
  });

  it('warns that text read from scanned pages needs checking against the original', async () => {
    stubApi({ [`GET ${TEXT_API}`]: jsonResponse(answer({ method: 'ocr', pages: 1, text: 'Wash hands.' })) });
    await show();
    await waitFor(() => expect(text(panel()!)).toContain('Wash hands.'));
    expect(text(panel()!)).toContain('Read by text recognition from scanned pages: check it against the original.');
  });

  it('says when a PDF has no text to read, and when reading failed', async () => {
    stubApi({ [`GET ${TEXT_API}`]: jsonResponse(answer({ text: '' })) });
    const first = await show();
    await waitFor(() => expect(text(panel()!)).toContain('This PDF has no text the portal could read.'));
    first.unmount();

    const reason = 'This file could not be opened as a PDF: it may be damaged or not really a PDF.';
    stubApi({ [`GET ${TEXT_API}`]: jsonResponse(answer({ state: 'failed', method: null, error: reason })) });
    await show();
    await waitFor(() => expect(text(panel()!)).toContain('The text of this PDF could not be read'));
    expect(text(panel()!)).toContain(reason);
  });

  it('offers to try again when the text could not be loaded', async () => {
    stubApi({ [`GET ${TEXT_API}`]: jsonResponse({ message: 'The server is busy.' }, 500) });
    await show();
    await waitFor(() => expect(panel()!.querySelector('button')).not.toBeNull());
    expect(text(panel()!)).toMatch(/busy|could not be loaded/);
  });
});
