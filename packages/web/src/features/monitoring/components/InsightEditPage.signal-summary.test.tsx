import { beforeAll, describe, expect, it } from 'vitest';
import { installEditorLayoutStubs } from '../../../components/RichTextEditor.testing';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, typeInto, waitFor } from '../../../test/render';
import { InsightEditPage } from './InsightEditPage';
import { INSIGHT } from './insights-test-fixtures';
import { API, BASE, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';

const DRAFT = {
  title: 'Falls with injury: a concern since Jan 2026',
  body: '<p>Falls with injury per 1,000 patient days: 6 points in a row above the centre line.</p>',
};

const editorHtml = () => document.querySelector('.ProseMirror')?.innerHTML ?? '';

function routes() {
  return {
    ...sessionRoutes(),
    [`GET ${API}/insights/4`]: jsonResponse(INSIGHT),
    [`GET ${API}/insights/4/revisions`]: jsonResponse({ revisions: [] }),
    [`POST ${API}/pages/5/insights/draft`]: jsonResponse(DRAFT),
    [`PUT ${API}/insights/4`]: (request: StubRequest) =>
      jsonResponse({ ...INSIGHT, ...(request.body as object), version: 3 }),
  };
}

const open = () =>
  openMonitoringScreen(`${BASE}/key-insights/edit/4`, ['key-insights/edit/:insightId'], <InsightEditPage />);

describe('InsightEditPage: Insert signal summary', () => {
  beforeAll(() => installEditorLayoutStubs());

  it("adds the drafted text after the author's, keeps their title, and saves only when asked, as a draft", async () => {
    const api = stubApi(routes());
    await open();
    await waitFor(() => expect(getField('Title').value).toBe('Falls fell'));
    await click(getControl('Insert signal summary'));
    await waitFor(() => expect(api.calls(`POST ${API}/pages/5/insights/draft`)).toHaveLength(1));
    await waitFor(() => expect(editorHtml()).toContain('6 points in a row above the centre line.'));
    expect(editorHtml()).toContain('Down 20%');
    expect(getField('Title').value).toBe('Falls fell');
    expect(toasts()).toContain('Signal summary inserted. Check the text, then save.');
    expect(api.calls(`PUT ${API}/insights/4`)).toHaveLength(0);

    await click(getControl('Save'));
    await waitFor(() => expect(api.calls(`PUT ${API}/insights/4`)).toHaveLength(1));
    const body = api.calls(`PUT ${API}/insights/4`)[0]!.body as Record<string, unknown>;
    expect(body).toEqual({ version: 2, title: 'Falls fell', body: `<p>Down 20%</p>${DRAFT.body}` });
    expect(body).not.toHaveProperty('status');
  });

  it('fills an empty title with the drafted one', async () => {
    stubApi(routes());
    await open();
    await waitFor(() => expect(getField('Title').value).toBe('Falls fell'));
    await typeInto(getField('Title'), '');
    await click(getControl('Insert signal summary'));
    await waitFor(() => expect(getField('Title').value).toBe(DRAFT.title));
  });

  it('says why when no summary can be written', async () => {
    stubApi({
      ...routes(),
      [`POST ${API}/pages/5/insights/draft`]: jsonResponse({ message: 'This page has no measures yet.' }, 422),
    });
    await open();
    await waitFor(() => expect(getField('Title').value).toBe('Falls fell'));
    await click(getControl('Insert signal summary'));
    await waitFor(() => expect(toasts()).toContain('This page has no measures yet.'));
    expect(editorHtml()).not.toContain('centre line');
  });
});
