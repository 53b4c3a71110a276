import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { editorContent, installEditorLayoutStubs, typeInEditor } from '../../../components/RichTextEditor.testing';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { AUTOSAVE_DELAY_MS } from './DocumentEditPage';
import { BASE, DOC_API, detail, input, openDocument, sessionRoutes, V3, withDraft } from './document-test-helpers';

installEditorLayoutStubs();

const EDIT = `${BASE}/documents/5/edit`;
const DRAFT = `${DOC_API}/draft`;
const SAVED_AT = '2026-03-04T18:05:00Z'; // 10:05 in the tests' time zone (America/Los_Angeles)

interface DraftBody {
  content: string;
  change_summary: string;
  base_revision: number;
}

function saved(request: StubRequest) {
  const body = request.body as DraftBody;
  return jsonResponse({ version_id: 103, revision: body.base_revision + 1, saved_at: SAVED_AT, content: body.content });
}

function server(routes: Record<string, unknown> = {}) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${DOC_API}`]: () => jsonResponse(withDraft()),
    [`PUT ${DRAFT}`]: saved,
    ...(routes as Record<string, Response>),
  });
}

const status = () => document.querySelector('[aria-live="polite"]')?.textContent ?? '';
const policyText = () => editorContent('Policy text');

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

async function openEditor() {
  const router = await openDocument(EDIT);
  await waitFor(() => expect(text(policyText())).toContain('Draft text about alcohol rub.'));
  return router;
}

describe('DocumentEditPage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads the draft and saves 2 s after the last change, each save on the revision the last one made', async () => {
    const api = server();
    await openEditor();
    expect(document.querySelector('h1')?.textContent).toBe('Edit: Hand hygiene');
    expect(input('Change summary').value).toBe('Adds alcohol rub');
    expect(status()).toBe('No changes yet.');
    expect(document.querySelector('button[aria-label="Insert table"]')).not.toBeNull();

    await typeInEditor(policyText(), 'Alcohol rub.');
    expect(status()).toBe('Unsaved changes…');
    // The brief's 2 seconds, counted from the last change.
    expect(AUTOSAVE_DELAY_MS).toBe(2000);
    await advance(1800);
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(0);
    await typeInEditor(policyText(), 'Alcohol rub is enough.');
    await advance(1800);
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(0);
    await advance(300);
    await waitFor(() => expect(status()).toBe('All changes saved at 10:05'));
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1);
    expect(api.calls(`PUT ${DRAFT}`)[0]!.body).toEqual({
      content: '<p>Alcohol rub is enough.</p>',
      change_summary: 'Adds alcohol rub',
      base_revision: V3.revision,
    });

    await typeInto(input('Change summary'), 'Alcohol rub');
    await advance(AUTOSAVE_DELAY_MS + 100);
    await waitFor(() => expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(2));
    expect(api.calls(`PUT ${DRAFT}`)[1]!.body).toEqual({
      content: '<p>Alcohol rub is enough.</p>',
      change_summary: 'Alcohol rub',
      base_revision: V3.revision + 1,
    });
  });

  it('on a 409 shows the server message, keeps the typed text, stops saving, and reloads only when asked', async () => {
    const message = 'Kim Park saved this draft at 10:04. Reload the draft to see their changes.';
    const theirs = { ...V3, content: '<p>Kim rewrote this.</p>', revision: 7 };
    const api = server({
      [`PUT ${DRAFT}`]: (request: StubRequest) =>
        (request.body as DraftBody).base_revision === 7 ? saved(request) : jsonResponse({ message }, 409),
      [`GET ${DOC_API}`]: [jsonResponse(withDraft()), jsonResponse(withDraft({ draft_version: theirs }))],
    });
    await openEditor();
    await typeInEditor(policyText(), 'My careful wording.');
    await advance(AUTOSAVE_DELAY_MS + 100);
    await waitFor(() => expect(status()).toBe(`Not saved: ${message}`));
    const alert = document.querySelector('[role="alert"]');
    expect(text(alert!)).toContain(message);
    expect(text(policyText())).toBe('My careful wording.');

    // No silent overwrite: more typing is kept but not sent.
    await typeInEditor(policyText(), 'My careful wording, improved.');
    await advance(AUTOSAVE_DELAY_MS * 2);
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1);
    expect(text(policyText())).toBe('My careful wording, improved.');

    await click(getControl('Reload the latest draft'));
    await waitFor(() => expect(text(policyText())).toBe('Kim rewrote this.'));
    expect(document.querySelector('[role="alert"]')).toBeNull();
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1);

    await typeInEditor(policyText(), 'Kim rewrote this, and I agree.');
    await advance(AUTOSAVE_DELAY_MS + 100);
    await waitFor(() => expect(status()).toBe('All changes saved at 10:05'));
    expect((api.calls(`PUT ${DRAFT}`)[1]!.body as DraftBody).base_revision).toBe(7);
  });

  it('keeps the text when a save fails and saves it again on request', async () => {
    const api = server({
      [`PUT ${DRAFT}`]: [jsonResponse({ message: 'Database unavailable.' }, 503), saved],
    });
    await openEditor();
    await typeInEditor(policyText(), 'Do not lose me.');
    await advance(AUTOSAVE_DELAY_MS + 100);
    await waitFor(() => expect(status()).toBe('Not saved: Database unavailable.'));
    expect(text(policyText())).toBe('Do not lose me.');

    await click(getControl('Save now'));
    await waitFor(() => expect(status()).toBe('All changes saved at 10:05'));
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(2);
    expect((api.calls(`PUT ${DRAFT}`)[1]!.body as DraftBody).content).toBe('<p>Do not lose me.</p>');
    // The failed save did not use up a revision.
    expect((api.calls(`PUT ${DRAFT}`)[1]!.body as DraftBody).base_revision).toBe(V3.revision);
  });

  it('Done saves what is pending, then returns to the policy', async () => {
    const api = server();
    const router = await openEditor();
    await typeInEditor(policyText(), 'Finished.');
    await click(getControl('Done'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/documents/5`));
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1);
    expect((api.calls(`PUT ${DRAFT}`)[0]!.body as DraftBody).content).toBe('<p>Finished.</p>');
  });

  it('Done stays on the page when the save fails', async () => {
    const api = server({ [`PUT ${DRAFT}`]: jsonResponse({ message: 'Database unavailable.' }, 503) });
    const router = await openEditor();
    await typeInEditor(policyText(), 'Finished.');
    await click(getControl('Done'));
    await waitFor(() => expect(status()).toBe('Not saved: Database unavailable.'));
    expect(router.state.location.pathname).toBe(EDIT);
    expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1);
  });

  it('saves a pending change at once when the page is left', async () => {
    const api = server();
    const router = await openEditor();
    await typeInEditor(policyText(), 'Saved on the way out.');
    await act(async () => {
      await router.navigate(`${BASE}/toc`);
    });
    await waitFor(() => expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1));
    expect((api.calls(`PUT ${DRAFT}`)[0]!.body as DraftBody).content).toBe('<p>Saved on the way out.</p>');
  });

  it('asks the browser to warn before closing while a change is unsaved', async () => {
    const api = server();
    await openEditor();
    const quiet = new Event('beforeunload', { cancelable: true });
    await act(async () => {
      window.dispatchEvent(quiet);
    });
    expect(quiet.defaultPrevented).toBe(false);

    await typeInEditor(policyText(), 'Unsaved.');
    const leaving = new Event('beforeunload', { cancelable: true });
    await act(async () => {
      window.dispatchEvent(leaving);
    });
    expect(leaving.defaultPrevented).toBe(true);
    // The save starts at once, and may outlive the page, in case the user leaves anyway.
    await waitFor(() => expect(api.calls(`PUT ${DRAFT}`)).toHaveLength(1));
    const init = api.mock.mock.calls.find(([url, options]) => String(url) === DRAFT && options?.method === 'PUT')?.[1];
    expect(init?.keepalive).toBe(true);
  });

  it('offers to start a new version when the policy has no draft', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${DOC_API}`]: [jsonResponse(detail()), jsonResponse(withDraft())],
      [`POST ${DOC_API}/new-version`]: jsonResponse(withDraft()),
    });
    await openDocument(EDIT);
    await waitFor(() => getControl('Start new version'));
    expect(document.querySelector('[contenteditable="true"]')).toBeNull();
    await click(getControl('Start new version'));
    await waitFor(() => expect(text(policyText())).toContain('Draft text about alcohol rub.'));
    expect(api.calls(`POST ${DOC_API}/new-version`)).toHaveLength(1);
  });

  it('does not offer the editor to someone who may not edit', async () => {
    server({
      [`GET ${DOC_API}`]: jsonResponse(
        withDraft({ abilities: { edit: false, archive: false, restore: false, renumber: false } }),
      ),
    });
    await openDocument(EDIT);
    await waitFor(() => expect(text()).toContain('You may not edit this policy.'));
    expect(document.querySelector('[contenteditable="true"]')).toBeNull();
  });
});
