import type { DocumentDetail } from '@portal/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { FakeXhr } from '../../../test/fake-xhr';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  bareDetail,
  chooseFile,
  department,
  fieldError,
  input,
  openPolicyAdmin,
  pick,
  sessionRoutes,
  toasts,
} from './admin-test-helpers';

const PATH = `${BASE}/convert`;
const NURSING = department({ id: 3, name: 'Nursing', code: 'NUR' });
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function detail(overrides: Partial<DocumentDetail> = {}): DocumentDetail {
  return bareDetail({ id: 77, title: 'Hand hygiene', ...overrides });
}

function server(routes: Record<string, StubHandler | StubHandler[]> = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/departments`]: jsonResponse({ departments: [NURSING] }),
    [`GET ${API}/numbering`]: jsonResponse({
      scheme: { levels: 3, department_prefixes: true, prefix_separator: '-' },
      used_count: 3,
      unassigned_count: 0,
    }),
    // Nursing's prefix wins over its chapter when the scheme gives departments prefixes.
    [`GET ${API}/documents/used-numbers`]: jsonResponse({
      numbers: ['1', '2', '2.1', 'NUR-1', 'NUR-2'],
      chapters: [{ department_id: NURSING.id, chapter: '2' }],
    }),
    ...routes,
  });
}

function docx(name = 'Hand_hygiene.docx') {
  return new File(['PK fake word document'], name, { type: DOCX });
}

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

describe('ConvertPage', () => {
  it('converts a Word document with progress, previews it safely and saves it as a draft', async () => {
    server();
    vi.spyOn(crypto, 'randomUUID').mockReturnValue('11111111-2222-4333-8444-555555555555');
    const router = await openPolicyAdmin(PATH);
    expect(document.querySelector('h1')!.textContent).toBe('Import a Word document');
    expect(text(document.querySelector('[data-testid="limits"]')!)).toBe('Word (.docx) or PDF, up to 10 MB');

    await chooseFile(docx());
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const convert = FakeXhr.sent[0]!;
    expect(convert.method).toBe('POST');
    expect(convert.url).toBe(`${API}/documents/convert`);
    expect(convert.withCredentials).toBe(true);
    expect(convert.headers['X-XSRF-TOKEN']).toBe('test-token');
    expect((convert.body!.get('file') as File).name).toBe('Hand_hygiene.docx');

    await convert.progress(50, 100);
    expect(
      document.querySelector('[data-testid="convert-progress"] [role="progressbar"]')?.getAttribute('aria-valuenow'),
    ).toBe('50');
    expect(text()).toContain('Uploading… 50%');
    await convert.progress(100, 100);
    expect(text()).toContain('Converting…');

    await convert.respond(200, {
      title: 'Hand Hygiene Policy',
      html: '<h1>Hand hygiene</h1><p>Wash hands.<script>window.hacked = true</script></p><img src="x" onerror="window.hacked = true">',
      messages: ['Unrecognised paragraph style: Fancy Heading', 'A text box was left out.'],
      images: 1,
    });
    const preview = document.querySelector('[data-testid="preview"]')!;
    expect(text(preview)).toContain('Wash hands.');
    expect(preview.innerHTML).not.toContain('script');
    expect(preview.innerHTML).not.toContain('onerror');
    expect(text()).toContain('What could not be carried over');
    expect([...document.querySelectorAll('[data-testid="convert-messages"] li')].map((li) => li.textContent)).toEqual([
      'Unrecognised paragraph style: Fancy Heading',
      'A text box was left out.',
    ]);
    expect(text()).toContain('1 image was kept.');
    expect(input('Title').value).toBe('Hand Hygiene Policy');

    await waitFor(() => expect(getControl('Suggest').hasAttribute('disabled')).toBe(false));
    await click(getControl('Suggest'));
    expect(input('Number').value).toBe('3');
    await pick('Department', 'Nursing (NUR)');
    await click(getControl('Suggest'));
    expect(input('Number').value).toBe('NUR-3');

    await click(getControl('Save as draft'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    const upload = FakeXhr.sent[1]!;
    expect(upload.url).toBe(`${API}/documents/upload`);
    expect(upload.headers['Idempotency-Key']).toBe('11111111-2222-4333-8444-555555555555');
    expect([...upload.body!.keys()]).toEqual(['title', 'number', 'department_id', 'file']);
    expect(upload.body!.get('title')).toBe('Hand Hygiene Policy');
    expect(upload.body!.get('number')).toBe('NUR-3');
    expect(upload.body!.get('department_id')).toBe('3');
    await upload.progress(40, 100);
    expect(text()).toContain('Uploading… 40%');
    await upload.respond(201, detail({ number: 'NUR-3' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/documents/77`));
    await waitFor(() => expect(toasts()).toContain('Draft saved.'));
  });

  it('keeps a PDF as it is and reuses the idempotency key when a save is retried', async () => {
    server();
    const keys = vi
      .spyOn(crypto, 'randomUUID')
      .mockReturnValueOnce('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa')
      .mockReturnValueOnce('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
    const router = await openPolicyAdmin(PATH);
    await chooseFile(new File(['%PDF-1.7'], 'Visitor policy.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(text()).toContain('the draft keeps the PDF as its source file'));
    expect(FakeXhr.sent).toHaveLength(0);
    expect(document.querySelector('[data-testid="preview"]')).toBeNull();
    expect(input('Title').value).toBe('Visitor policy');

    await click(getControl('Save as draft'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    expect([...FakeXhr.sent[0]!.body!.keys()]).toEqual(['title', 'file']);
    await FakeXhr.sent[0]!.fail();
    await waitFor(() =>
      expect(text()).toContain('The server could not be reached. Please check your connection and try again.'),
    );

    await click(getControl('Save as draft'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    expect(FakeXhr.sent[1]!.headers['Idempotency-Key']).toBe('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    expect(FakeXhr.sent[0]!.headers['Idempotency-Key']).toBe('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    expect(keys).toHaveBeenCalledTimes(1);

    // Another file is another upload: a new key.
    await FakeXhr.sent[1]!.fail();
    await chooseFile(new File(['%PDF-1.7'], 'Other.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(input('Title').value).toBe('Other'));
    await click(getControl('Save as draft'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(3));
    expect(FakeXhr.sent[2]!.headers['Idempotency-Key']).toBe('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
    await FakeXhr.sent[2]!.respond(200, detail({ id: 78 }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/documents/78`));
  });

  it("suggests a department's policy the next number in its chapter when departments have no prefixes", async () => {
    server({
      [`GET ${API}/numbering`]: jsonResponse({
        scheme: { levels: 3, department_prefixes: false, prefix_separator: '-' },
        used_count: 5,
        unassigned_count: 0,
      }),
    });
    await openPolicyAdmin(PATH);
    await chooseFile(new File(['%PDF-1.7'], 'Falls.pdf', { type: 'application/pdf' }));
    await waitFor(() => input('Title'));
    await waitFor(() => expect(getControl('Suggest').hasAttribute('disabled')).toBe(false));
    await click(getControl('Suggest'));
    expect(input('Number').value).toBe('3');
    await pick('Department', 'Nursing (NUR)');
    await click(getControl('Suggest'));
    expect(input('Number').value).toBe('2.2');
  });

  it('refuses files it cannot take and checks the fields before uploading', async () => {
    server();
    await openPolicyAdmin(PATH);
    await chooseFile(new File(['notes'], 'notes.txt', { type: 'text/plain' }));
    await waitFor(() => expect(text()).toContain('Choose a Word (.docx) or PDF file.'));
    await chooseFile(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(text()).toContain('The file is larger than 10 MB.'));
    expect(FakeXhr.sent).toHaveLength(0);
    expect(document.querySelector('form')).toBeNull();

    await chooseFile(new File(['%PDF-1.7'], 'Falls.pdf', { type: 'application/pdf' }));
    await waitFor(() => input('Title'));
    await waitFor(() => expect(getControl('Suggest').hasAttribute('disabled')).toBe(false));
    await typeInto(input('Title'), '  ');
    await typeInto(input('Number'), '1.02');
    await click(getControl('Save as draft'));
    expect(fieldError('Title')).toBe('Enter the title.');
    expect(fieldError('Number')).toBe('Use a number like 1, 1.2 or 1.2.10 (each part 1 to 9999, no leading zeros).');
    await typeInto(input('Title'), 'Falls');
    await typeInto(input('Number'), 'NUR-4');
    await click(getControl('Save as draft'));
    expect(fieldError('Number')).toBe('Numbers in this project have no prefix.');
    await typeInto(input('Number'), '2');
    await click(getControl('Save as draft'));
    expect(fieldError('Number')).toBe('This number is already used.');
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('shows server field errors on the fields and other refusals above the form', async () => {
    server();
    await openPolicyAdmin(PATH);
    await chooseFile(new File(['%PDF-1.7'], 'Falls.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(getControl('Suggest').hasAttribute('disabled')).toBe(false));
    await typeInto(input('Number'), '7');
    await click(getControl('Save as draft'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    await FakeXhr.sent[0]!.respond(400, {
      message: 'The upload was refused.',
      errors: { number: ['Number 7 was taken a moment ago.'] },
    });
    await waitFor(() => expect(fieldError('Number')).toBe('Number 7 was taken a moment ago.'));

    await typeInto(input('Number'), '');
    await click(getControl('Save as draft'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    await FakeXhr.sent[1]!.respond(413, { message: 'The file is larger than 10 MB.' });
    await waitFor(() =>
      expect([...document.querySelectorAll('[role="alert"]')].map((element) => element.textContent)).toContain(
        'The file is larger than 10 MB.',
      ),
    );
  });

  it('explains a conversion the server refuses and tries again', async () => {
    server();
    await openPolicyAdmin(PATH);
    await chooseFile(docx('Broken.docx'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    await FakeXhr.sent[0]!.respond(415, { message: 'This file is not a Word document.' });
    await waitFor(() => expect(text()).toContain('This file is not a Word document.'));
    expect(document.querySelector('form')).toBeNull();

    await click(getControl('Try again'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    await FakeXhr.sent[1]!.respond(200, { title: '', html: '<p>Text</p>', messages: [], images: 0 });
    await waitFor(() => expect(text()).toContain('Nothing: everything was carried over.'));
    expect(input('Title').value).toBe('Broken');
  });
});
