import type { DocumentDetail } from '@portal/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PHONE_QUERY } from '../../../lib/use-phone';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  DOC_API,
  detail,
  dialog,
  fieldError,
  headerActions,
  input,
  openDocument,
  pick,
  sessionRoutes,
  summaryOf,
  tab,
  toasts,
  V1,
  V2,
  V3,
  version,
  withDraft,
} from './document-test-helpers';

const PAGE = `${BASE}/documents/5`;

/** A tiny server keeping the document, so changes show on the page. */
function server(initial: DocumentDetail = detail(), routes: Record<string, unknown> = {}) {
  let doc = initial;
  return stubApi({
    ...sessionRoutes(),
    [`GET ${DOC_API}`]: () => jsonResponse(doc),
    [`PATCH ${DOC_API}`]: (request: StubRequest) => {
      const body = request.body as { title?: string; department_id?: number | null };
      doc = {
        ...doc,
        ...(body.title ? { title: body.title } : {}),
        ...(body.department_id !== undefined
          ? { department: body.department_id === 8 ? { id: 8, name: 'Pharmacy', code: 'PHA' } : null }
          : {}),
      };
      return jsonResponse(doc);
    },
    [`POST ${DOC_API}/archive`]: () => {
      doc = { ...doc, status: 'archived' };
      return jsonResponse(doc);
    },
    [`POST ${DOC_API}/new-version`]: () => {
      doc = withDraft();
      return jsonResponse(doc);
    },
    [`GET ${DOC_API}/versions/101`]: jsonResponse(V1),
    [`GET ${API}/departments`]: jsonResponse({
      departments: [
        { id: 3, name: 'Nursing', code: 'NUR', parent_id: null, document_count: 4 },
        { id: 8, name: 'Pharmacy', code: 'PHA', parent_id: null, document_count: 1 },
        { id: 9, name: 'ICU', code: 'ICU', parent_id: 3, document_count: 0 },
      ],
    }),
    ...(routes as Record<string, Response>),
  });
}

function href(name: string): string | null {
  return getControl(name).getAttribute('href');
}

/** The window as a phone's: Mantine's media queries match PHONE_QUERY. */
function asPhone() {
  const real = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const answer = real(query);
    return Object.assign(Object.create(answer), { matches: query === PHONE_QUERY, media: query });
  });
}

afterEach(() => vi.restoreAllMocks());

describe('DocumentPage', () => {
  it('on a phone puts the text first: details and actions fold, the contents fold, sign-off follows the text', async () => {
    asPhone();
    const V = { ...V2, content: '<h2>Purpose</h2><p>Wash hands.</p><h2>Procedure</h2><h3>Before</h3><p>Rub.</p>' };
    server(detail({ current_version: V }));
    await openDocument(PAGE);
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Hand hygiene'));
    expect(headerActions()).toEqual([
      'Details and actions',
      'Start new version',
      'Settings',
      'Print',
      'Download PDF',
      'Copy link',
      'QR code',
      'Archive',
    ]);
    const toggle = getControl('Details and actions');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    const contents = document.querySelector('nav[aria-label="Contents of this policy"]')!;
    const fold = getControl('Contents (3 sections)', contents as HTMLElement);
    expect(fold.getAttribute('aria-expanded')).toBe('false');
    await click(fold);
    const before = getControl('Before', contents as HTMLElement);
    const target = document.getElementById('policy-section-3')!;
    expect(target.textContent).toBe('Before');
    target.scrollIntoView = vi.fn();
    await click(before);
    expect(target.scrollIntoView).toHaveBeenCalled();
    expect(document.activeElement).toBe(target);

    // The review and sign-off panel comes after the text.
    const text = document.querySelector('.policy-content')!;
    const signOff = document.querySelector('[data-testid="workflow-panel"]')!;
    expect(text.compareDocumentPosition(signOff) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows the text read from a PDF in place of the empty text of a version kept as a PDF', async () => {
    const pdf = {
      ...V2,
      content: '',
      source_file: { id: 88, name: 'hand-rub.pdf', content_type: 'application/pdf' },
    };
    server(detail({ current_version: pdf }), {
      [`GET ${DOC_API}/versions/102/source-text`]: jsonResponse({
        state: 'done',
        method: 'pdf_text',
        progress: 100,
        pages: 2,
        error: null,
        text: 'Quinquennial review of hand rub.',
      }),
    });
    await openDocument(PAGE);
    await waitFor(() => expect(text()).toContain('Quinquennial review of hand rub.'));
    expect(text()).toContain('Text of the PDF');
    expect(text()).not.toContain('This version has no text yet.');
    expect(getControl('Download the original PDF (hand-rub.pdf)').getAttribute('href')).toBe(`${API}/files/88`);
  });

  it('offers the contents of a policy with headings, open on a large screen', async () => {
    server(detail({ current_version: { ...V2, content: '<h2>Scope</h2><p>All wards.</p><h2>Steps</h2><p>Rub.</p>' } }));
    await openDocument(PAGE);
    await waitFor(() => expect(document.querySelector('[data-testid="workflow-panel"]')).not.toBeNull());
    const signOff = document.querySelector('[data-testid="workflow-panel"]')!;
    expect(
      signOff.compareDocumentPosition(document.querySelector('[role="tablist"]')!) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    await waitFor(() => expect(document.querySelector('nav[aria-label="Contents of this policy"]')).not.toBeNull());
    const fold = getControl('Contents (2 sections)');
    expect(fold.getAttribute('aria-expanded')).toBe('true');
    expect(getControl('Steps').tagName).toBe('BUTTON');
    expect(document.getElementById('policy-section-2')?.textContent).toBe('Steps');
    expect(getControl('Download PDF').getAttribute('href')).toBe(`${DOC_API}/pdf`);
  });

  it('shows the header, the actions the user may take and the current version, sanitised', async () => {
    server();
    await openDocument(PAGE);
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Hand hygiene'));
    expect(document.title).toContain('4.2 Hand hygiene');
    const header = text(document.querySelector('h1')!.closest('.mantine-Paper-root')!);
    expect(header).toContain('4.2');
    expect(header).toContain('Published');
    expect(header).toContain('Nursing (NUR)');
    expect(header).toContain('ApprovedJanuary 10, 2026');
    expect(header).toContain('Ana Ruiz');
    expect(header).toContain('January 15, 2026');
    expect(header).toContain('January 15, 2027');

    expect(headerActions()).toEqual([
      'Start new version',
      'Settings',
      'Print',
      'Download PDF',
      'Copy link',
      'QR code',
      'Archive',
    ]);
    expect(href('Print')).toBe(`${BASE}/documents/5/print?version=102`);

    expect(text()).toContain('Showing the current version: version 2, effective January 15, 2026.');
    const content = document.querySelector('.policy-content')!;
    expect(content.querySelector('h2')?.textContent).toBe('Purpose');
    expect(content.querySelector('td')?.textContent).toBe('Nurses');
    expect(content.querySelector('img')?.hasAttribute('onerror')).toBe(false);
    expect(content.innerHTML).not.toContain('onerror');
    expect(document.querySelector('[role="alert"]')).toBeNull();
    expect(document.querySelector('[data-testid="generated-from"]')).toBeNull();
  });

  it('names the template a generated policy was made from, with a link to it', async () => {
    server(
      withDraft({
        generated_from: {
          template_id: 31,
          template_title: 'Hand Hygiene',
          template_version: 2,
          at: '2026-11-20T15:00:00Z',
        },
      }),
    );
    await openDocument(PAGE);
    await waitFor(() => expect(document.querySelector('[data-testid="generated-from"]')).not.toBeNull());
    expect(text(document.querySelector('[data-testid="generated-from"]')!)).toMatch(
      /^Made with the Policy Generator from Hand Hygiene, template version 2, on Nov 20, 2026/,
    );
    expect(href('Hand Hygiene')).toBe('/app/policy_generator/templates/31');
  });

  it('hides what the abilities do not allow', async () => {
    server(detail({ abilities: { edit: false, archive: false, restore: false, renumber: false } }));
    await openDocument(PAGE);
    await waitFor(() => expect(headerActions()).toEqual(['Print', 'Download PDF', 'Copy link', 'QR code']));
    expect(text()).toContain('Wash hands before and after patient contact.');
  });

  it('links the policy to standards for those the add-standards section allows', async () => {
    server(detail(), {
      'GET /api/me/permissions': jsonResponse({ permissions: { 'policy_management:add-standards': true } }),
    });
    await openDocument(PAGE);
    await waitFor(() => expect(headerActions()).toContain('Link to standards'));
    expect(href('Link to standards')).toBe(`${BASE}/add-standards?document=5`);
  });

  it('links to the draft editor when a draft is open and mentions the draft', async () => {
    server(withDraft());
    await openDocument(PAGE);
    await waitFor(() =>
      expect(headerActions()).toEqual([
        'Edit draft',
        'Settings',
        'Print',
        'Download PDF',
        'Copy link',
        'QR code',
        'Archive',
      ]),
    );
    expect(href('Edit draft')).toBe(`${BASE}/documents/5/edit`);
    expect(text()).toContain('A new draft (version 3) is being prepared.');
    expect(href('Read version 3')).toBe(`${BASE}/documents/5?version=103`);
  });

  it('starts a new version and opens the editor', async () => {
    const api = server();
    const router = await openDocument(PAGE);
    await waitFor(() => getControl('Start new version'));
    await click(getControl('Start new version'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/documents/5/edit`));
    expect(api.calls(`POST ${DOC_API}/new-version`)).toHaveLength(1);
  });

  it('shows an older version with a warning, and prints that version', async () => {
    const api = server();
    await openDocument(`${PAGE}?version=101`);
    await waitFor(() => expect(text()).toContain('Wash hands often.'));
    const alert = [...document.querySelectorAll('.mantine-Alert-root')].find((element) =>
      element.textContent?.includes('Not the current version'),
    );
    expect(alert).toBeDefined();
    expect(text(alert!)).toContain('You are reading Version 1 (Superseded), effective January 15, 2025.');
    expect(getControl('Show the current version').getAttribute('href')).toBe(`${BASE}/documents/5`);
    expect(href('Print')).toBe(`${BASE}/documents/5/print?version=101`);
    expect(api.calls(`GET ${DOC_API}/versions/101`)).toHaveLength(1);
  });

  it('shows the current version without a warning when the link names it', async () => {
    const api = server();
    await openDocument(`${PAGE}?version=102`);
    await waitFor(() => expect(text()).toContain('Wash hands before and after patient contact.'));
    expect(text()).not.toContain('Not the current version');
    expect(api.calls(`GET ${DOC_API}/versions/102`)).toHaveLength(0);
  });

  it('shows the draft of a never-published policy, and says when it has no text', async () => {
    const blank = version({ id: 110, version: 1, state: 'draft', content: '<p></p>', revision: 0 });
    server(
      detail({
        status: 'draft',
        effective_on: null,
        current_version: null,
        draft_version: blank,
        versions: [summaryOf(blank)],
        number: null,
      }),
    );
    await openDocument(PAGE);
    await waitFor(() => expect(text()).toContain('This version has no text yet.'));
    expect(text()).toContain('Showing draft version 1: not published yet, so readers do not see it.');
    expect(text()).toContain('No number yet');
    expect(text()).toContain('Not yet effective');
    expect(headerActions()).toEqual(['Edit draft', 'Settings', 'Print', 'Copy link', 'QR code', 'Archive']);
    expect(document.querySelector('.policy-content')).toBeNull();
  });

  it('lists the versions with view and source file links, and the number history', async () => {
    server(withDraft());
    await openDocument(PAGE);
    await waitFor(() => tab('History'));
    await click(tab('History'));
    await waitFor(() => expect(document.querySelectorAll('tbody tr')).toHaveLength(3));
    const rows = [...document.querySelectorAll('tbody tr')].map((row) => text(row));
    expect(rows[0]).toContain('Draft');
    expect(rows[0]).toContain('Adds alcohol rub');
    expect(rows[0]).toContain('Member One');
    expect(rows[1]).toContain('Current');
    expect(rows[1]).toContain('January 15, 2026');
    expect(rows[2]).toContain('Superseded');
    expect(rows[2]).toContain('First issue');
    expect(document.querySelector('a[aria-label="View version 1"]')?.getAttribute('href')).toBe(
      `${BASE}/documents/5?version=101`,
    );
    const source = document.querySelector<HTMLAnchorElement>('a[aria-label^="Download the source file of version 1"]');
    expect(source?.getAttribute('href')).toBe(`${API}/files/77`);
    expect(document.querySelectorAll('a[aria-label^="Download the source file"]')).toHaveLength(1);
    expect(text(document.querySelector('[aria-label="Number history"]')!)).toContain('4.1 → 4.2');
    expect(text(document.querySelector('[aria-label="Number history"]')!)).toContain('by Ana Ruiz');
  });

  it('compares the previous version with the latest as a sanitised redline', async () => {
    const api = server(withDraft(), {
      [`GET ${DOC_API}/compare`]: (request: StubRequest) =>
        jsonResponse({
          from: summaryOf(request.query.get('from') === '101' ? V1 : V2),
          to: summaryOf(V3),
          html: '<p>Wash <del>hands</del><ins>with alcohol rub</ins>.</p><script>window.hacked = 1</script>',
          insertions: 1,
          deletions: 1,
        }),
    });
    await openDocument(PAGE);
    await waitFor(() => tab('Compare'));
    await click(tab('Compare'));
    await waitFor(() => expect(document.querySelector('.policy-content ins')?.textContent).toBe('with alcohol rub'));
    expect(document.querySelector('.policy-content del')?.textContent).toBe('hands');
    expect(document.querySelector('.policy-content script')).toBeNull();
    expect(api.calls(`GET ${DOC_API}/compare`)[0]!.url).toBe(`${DOC_API}/compare?from=102&to=103`);
    expect(input('From version').value).toBe('Version 2 (Current)');
    expect(input('To version').value).toBe('Version 3 (Draft)');
    const legend = text(document.querySelector('[aria-label="Legend"]')!);
    expect(legend).toContain('Added 1 insertion');
    expect(legend).toContain('Removed 1 deletion');

    await pick('From version', 'Version 1 (Superseded)');
    await waitFor(() => expect(api.calls(`GET ${DOC_API}/compare`)).toHaveLength(2));
    expect(api.calls(`GET ${DOC_API}/compare`)[1]!.url).toBe(`${DOC_API}/compare?from=101&to=103`);
  });

  it('says there is nothing to compare with a single version', async () => {
    const api = server(detail({ versions: [summaryOf(V2)] }));
    await openDocument(PAGE);
    await waitFor(() => tab('Compare'));
    await click(tab('Compare'));
    await waitFor(() => expect(text()).toContain('There is only one version so far: there is nothing to compare yet.'));
    expect(api.calls(`GET ${DOC_API}/compare`)).toHaveLength(0);
  });

  it('edits the settings, showing server field errors on their fields', async () => {
    let attempts = 0;
    let doc = detail();
    const api = server(doc, {
      [`GET ${DOC_API}`]: () => jsonResponse(doc),
      [`PATCH ${DOC_API}`]: (request: StubRequest) => {
        attempts += 1;
        if (attempts === 1) {
          return jsonResponse({ message: 'Check the fields.', errors: { title: ['That title is taken.'] } }, 400);
        }
        const body = request.body as { title: string };
        doc = detail({ title: body.title, department: { id: 8, name: 'Pharmacy', code: 'PHA' } });
        return jsonResponse(doc);
      },
    });
    await openDocument(PAGE);
    await waitFor(() => getControl('Settings'));
    await click(getControl('Settings'));
    await waitFor(() => expect(input('Title', dialog()).value).toBe('Hand hygiene'));
    await waitFor(() => expect(input('Department', dialog()).value).toBe('Nursing (NUR)'));
    expect(input('Review interval (months)', dialog()).value).toBe('12');
    expect(input('Next review date', dialog()).value).toBe('2027-01-15');

    await typeInto(input('Title', dialog()), 'Hand hygiene for staff');
    await pick('Department', 'Pharmacy (PHA)');
    await click(getControl('Save settings', dialog()));
    await waitFor(() => expect(fieldError('Title')).toBe('That title is taken.'));
    expect(api.calls(`PATCH ${DOC_API}`)[0]!.body).toEqual({ title: 'Hand hygiene for staff', department_id: 8 });

    await click(getControl('Save settings', dialog()));
    await waitFor(() => expect(toasts()).toContain('Policy settings saved.'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Hand hygiene for staff'));
    expect(text()).toContain('Pharmacy (PHA)');
  });

  it('refuses an empty title before sending', async () => {
    const api = server();
    await openDocument(PAGE);
    await waitFor(() => getControl('Settings'));
    await click(getControl('Settings'));
    await waitFor(() => input('Title', dialog()));
    await typeInto(input('Title', dialog()), '  ');
    await click(getControl('Save settings', dialog()));
    await waitFor(() => expect(fieldError('Title')).toBe('Enter the title.'));
    expect(api.calls(`PATCH ${DOC_API}`)).toHaveLength(0);
  });

  it('asks before archiving, then shows the policy archived', async () => {
    const api = server();
    await openDocument(PAGE);
    await waitFor(() => getControl('Archive'));
    await click(getControl('Archive'));
    await waitFor(() =>
      expect(text(dialog())).toContain(
        'Archive policy "Hand hygiene"? It leaves the table of contents and can be restored from the archive.',
      ),
    );
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`POST ${DOC_API}/archive`)).toHaveLength(0);

    await click(getControl('Archive'));
    await waitFor(() => dialog());
    await click(getControl('Archive', dialog()));
    await waitFor(() => expect(toasts()).toContain('"Hand hygiene" was archived.'));
    expect(api.calls(`POST ${DOC_API}/archive`)).toHaveLength(1);
    await waitFor(() => expect(text()).toContain('This policy is archived'));
    expect(headerActions()).toEqual(['Print', 'Copy link', 'QR code']);
  });

  it('says so when the policy does not exist', async () => {
    server(detail(), { [`GET ${DOC_API}`]: jsonResponse({ message: 'Not found.' }, 404) });
    await openDocument(PAGE);
    await waitFor(() => expect(text()).toContain('This policy does not exist or is not available to you.'));
    expect(document.querySelector('h1')?.textContent).toBe('Policy not found');
  });

  it('shows a load failure with a retry', async () => {
    const api = server(detail(), {
      [`GET ${DOC_API}`]: [jsonResponse({ message: 'Database unavailable.' }, 503), jsonResponse(detail())],
    });
    await openDocument(PAGE);
    await waitFor(() => expect(text()).toContain('Database unavailable.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Hand hygiene'));
    expect(api.calls(`GET ${DOC_API}`)).toHaveLength(2);
  });
});
