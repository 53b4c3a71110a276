import type { TermsVersionDetail } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { editorContent, installEditorLayoutStubs, typeInEditor } from '../../../components/RichTextEditor.testing';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { PUBLISH_WARNING, TermsEditorPage } from './TermsEditorPage';
import { dialog, openPage, toasts } from './test-utils';

installEditorLayoutStubs();

const PUBLISHED: TermsVersionDetail = {
  id: 3,
  status: 'published',
  published_at: '2026-03-04T18:00:00Z',
  published_by: { id: 1, name: 'Ada Admin' },
  created_at: '2026-03-01T10:00:00Z',
  updated_at: '2026-03-04T18:00:00Z',
  accepted_count: 120,
  content: '<h2>System use</h2><p>Published text</p>',
};
const DRAFT: TermsVersionDetail = {
  ...PUBLISHED,
  id: 4,
  status: 'draft',
  published_at: null,
  published_by: null,
  accepted_count: 0,
  updated_at: '2026-03-06T09:30:00Z',
  content: '<p>Draft text</p>',
};

/** A tiny server keeping the draft and the published version. */
function server(initial: { draft: TermsVersionDetail | null; published: TermsVersionDetail | null }) {
  let state = { ...initial };
  return stubApi({
    'GET /super/terms/editor': () => jsonResponse(state),
    'PUT /super/terms/draft': (request: StubRequest) => {
      const { content } = request.body as { content: string };
      const draft = { ...(state.draft ?? DRAFT), content, updated_at: '2026-03-07T12:00:00Z' };
      state = { ...state, draft };
      return jsonResponse(draft);
    },
    'POST /super/terms/publish': (request: StubRequest) => {
      const { content } = request.body as { content: string };
      const published = { ...PUBLISHED, id: 5, content, published_at: '2026-03-08T12:00:00Z' };
      state = { draft: null, published };
      return jsonResponse(published, 201);
    },
  });
}

const open = () => openPage('/superadmin/terms_and_conditions', <TermsEditorPage />);

async function loaded() {
  await waitFor(() => expect(editorContent('Terms text')).toBeTruthy());
}

function previewToggle(value: 'edit' | 'preview'): HTMLInputElement {
  const input = document.querySelector<HTMLInputElement>(`input[type="radio"][value="${value}"]`);
  if (!input) throw new Error(`no ${value} toggle`);
  return input;
}

describe('TermsEditorPage', () => {
  it('starts from the draft, says when the terms were last published and saves the draft', async () => {
    const api = server({ draft: DRAFT, published: PUBLISHED });
    await open();
    expect(document.querySelector('h1')?.textContent).toBe('Terms and Conditions');
    await loaded();
    expect(text(editorContent())).toContain('Draft text');
    expect(text(document.querySelector('[data-testid="last-published"]')!)).toBe(
      'Last published March 4, 2026 (version 3)',
    );
    expect(getControl('Version history').getAttribute('href')).toBe('/superadmin/terms_and_conditions/history');
    expect(document.querySelector('[data-testid="unsaved"]')).toBeNull();

    await typeInEditor(editorContent(), 'Revised draft');
    await waitFor(() => expect(document.querySelector('[data-testid="unsaved"]')).not.toBeNull());
    await click(getControl('Save draft'));
    await waitFor(() => expect(api.calls('PUT /super/terms/draft')).toHaveLength(1));
    expect(api.calls('PUT /super/terms/draft')[0]!.body).toEqual({ content: '<p>Revised draft</p>' });
    await waitFor(() => expect(toasts().some((title) => title.startsWith('Draft saved at'))).toBe(true));
    expect(document.querySelector('[data-testid="unsaved"]')).toBeNull();
    expect(api.calls('POST /super/terms/publish')).toHaveLength(0);
  });

  it('starts from the newest published text when there is no draft', async () => {
    server({ draft: null, published: PUBLISHED });
    await open();
    await loaded();
    expect(text(editorContent())).toContain('Published text');
    expect(editorContent().querySelector('h2')?.textContent).toBe('System use');
  });

  it('refuses to save empty terms, with the message on the field', async () => {
    const api = server({ draft: null, published: null });
    await open();
    await loaded();
    expect(text(document.querySelector('[data-testid="last-published"]')!)).toBe('Not published yet');
    await click(getControl('Save draft'));
    expect(text()).toContain('Write the terms before saving.');
    expect(editorContent().getAttribute('aria-invalid')).toBe('true');
    await click(getControl('Publish new version'));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(api.calls('PUT /super/terms/draft')).toHaveLength(0);
    expect(api.calls('POST /super/terms/publish')).toHaveLength(0);
  });

  it("shows the server's field error on the editor", async () => {
    stubApi({
      'GET /super/terms/editor': jsonResponse({ draft: DRAFT, published: null }),
      'PUT /super/terms/draft': jsonResponse(
        { message: 'Invalid', errors: { content: ['The terms must be at most 200,000 characters.'] } },
        422,
      ),
    });
    await open();
    await loaded();
    await click(getControl('Save draft'));
    await waitFor(() => expect(text()).toContain('The terms must be at most 200,000 characters.'));
    const describedBy = editorContent().getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy.split(' ')[0]!)?.textContent).toBe(
      'The terms must be at most 200,000 characters.',
    );
  });

  it('asks for confirmation before publishing, then publishes the text', async () => {
    const api = server({ draft: DRAFT, published: PUBLISHED });
    await open();
    await loaded();
    await click(getControl('Publish new version'));
    await waitFor(() => expect(text(dialog())).toContain(PUBLISH_WARNING));
    await click(getControl('Cancel', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(api.calls('POST /super/terms/publish')).toHaveLength(0);

    await click(getControl('Publish new version'));
    await waitFor(() => dialog());
    await click(getControl('Publish', dialog()));
    await waitFor(() => expect(api.calls('POST /super/terms/publish')).toHaveLength(1));
    expect(api.calls('POST /super/terms/publish')[0]!.body).toEqual({ content: '<p>Draft text</p>' });
    await waitFor(() => expect(toasts()).toContain(`Version 5 published. ${PUBLISH_WARNING}`));
    await waitFor(() =>
      expect(text(document.querySelector('[data-testid="last-published"]')!)).toBe(
        'Last published March 8, 2026 (version 5)',
      ),
    );
  });

  it('previews the text as users will read it, in a focusable scrolling box', async () => {
    server({
      draft: { ...DRAFT, content: '<p>Safe <strong>bold</strong></p>' },
      published: null,
    });
    await open();
    await loaded();
    await click(previewToggle('preview'));
    const preview = document.querySelector<HTMLElement>('[role="region"][aria-label="Preview of the terms"]');
    expect(preview?.querySelector('strong')?.textContent).toBe('bold');
    expect(preview?.tabIndex).toBe(0);
    expect(editorContent().closest('[hidden]')).not.toBeNull();
    await click(previewToggle('edit'));
    expect(document.querySelector('[aria-label="Preview of the terms"]')).toBeNull();
    expect(editorContent().closest('[hidden]')).toBeNull();
  });

  it('warns before leaving with unsaved changes', async () => {
    server({ draft: DRAFT, published: PUBLISHED });
    const router = await open();
    await loaded();

    // Nothing changed: leaving needs no confirmation.
    await typeInEditor(editorContent(), 'Unsaved words');
    await waitFor(() => expect(document.querySelector('[data-testid="unsaved"]')).not.toBeNull());

    await click(getControl('Version history'));
    await waitFor(() => expect(text(dialog())).toContain('Leave without saving?'));
    expect(router.state.location.pathname).toBe('/superadmin/terms_and_conditions');
    await click(getControl('Stay on this page', dialog()));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(router.state.location.pathname).toBe('/superadmin/terms_and_conditions');

    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);

    await click(getControl('Version history'));
    await waitFor(() => dialog());
    await click(getControl('Leave', dialog()));
    await waitFor(() => expect(router.state.location.pathname).toBe('/superadmin/terms_and_conditions/history'));
  });

  it('lets the writer leave freely when nothing changed', async () => {
    server({ draft: DRAFT, published: PUBLISHED });
    const router = await open();
    await loaded();
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    await click(getControl('Version history'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/superadmin/terms_and_conditions/history'));
  });

  it('shows a load error with Retry', async () => {
    const api = stubApi({
      'GET /super/terms/editor': [
        jsonResponse({ message: 'Service unavailable' }, 503),
        jsonResponse({ draft: null, published: PUBLISHED }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Service unavailable'));
    expect(document.querySelector('[contenteditable]')).toBeNull();
    await click(getControl('Retry'));
    await loaded();
    expect(text(editorContent())).toContain('Published text');
    expect(api.calls('GET /super/terms/editor')).toHaveLength(2);
  });
});
