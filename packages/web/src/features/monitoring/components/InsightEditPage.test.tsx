import { STALE_INSIGHT_MESSAGE } from '@portal/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { installEditorLayoutStubs } from '../../../components/RichTextEditor.testing';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { InsightEditPage } from './InsightEditPage';
import { INSIGHT } from './insights-test-fixtures';
import { API, BASE, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';

const REVISIONS = {
  revisions: [
    {
      version: 2,
      title: 'Falls fell',
      status: 'draft',
      edited_by: { id: 3, name: 'Ada Admin' },
      edited_at: '2026-03-02T10:00:00Z',
    },
    {
      version: 1,
      title: 'Falls',
      status: 'draft',
      edited_by: { id: 3, name: 'Ada Admin' },
      edited_at: '2026-03-01T10:00:00Z',
    },
  ],
};

const open = (id = '4') =>
  openMonitoringScreen(`${BASE}/key-insights/edit/${id}`, ['key-insights/edit/:insightId'], <InsightEditPage />);

describe('InsightEditPage', () => {
  beforeAll(() => installEditorLayoutStubs());

  it('shows the insight, its page and its history, and publishes with the version it started from', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/insights/4`]: jsonResponse(INSIGHT),
      [`GET ${API}/insights/4/revisions`]: jsonResponse(REVISIONS),
      [`PUT ${API}/insights/4`]: (request: StubRequest) =>
        jsonResponse({ ...INSIGHT, ...(request.body as object), version: 3, published_at: '2026-03-03T10:00:00Z' }),
    });
    await open();
    await waitFor(() => expect(getField('Title').value).toBe('Falls fell'));
    expect(text()).toContain('Page 1.2 Falls with injury');
    expect(getControl('Back to 1.2 Falls with injury').getAttribute('href')).toBe(`${BASE}/pages/page/5`);
    await waitFor(() => expect(document.querySelectorAll('table tbody tr')).toHaveLength(2));
    expect(() => getControl('Unpublish')).toThrow();
    await click(getControl('Publish'));
    await waitFor(() => expect(api.calls(`PUT ${API}/insights/4`)).toHaveLength(1));
    expect(api.calls(`PUT ${API}/insights/4`)[0]!.body).toEqual({
      version: 2,
      title: 'Falls fell',
      body: '<p>Down 20%</p>',
      status: 'published',
    });
    await waitFor(() => expect(toasts()).toContain('Key insight published.'));
  });

  it('shows the conflict alert on 409 and keeps the typed text through Reload', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/insights/4`]: [jsonResponse(INSIGHT), jsonResponse({ ...INSIGHT, title: 'Theirs', version: 3 })],
      [`GET ${API}/insights/4/revisions`]: jsonResponse(REVISIONS),
      [`PUT ${API}/insights/4`]: [
        jsonResponse({ message: STALE_INSIGHT_MESSAGE, errors: { version: ['3'] } }, 409),
        (request: StubRequest) => jsonResponse({ ...INSIGHT, ...(request.body as object), version: 4 }),
      ],
    });
    await open();
    await waitFor(() => expect(getField('Title').value).toBe('Falls fell'));
    await typeInto(getField('Title'), 'Mine');
    await click(getControl('Save'));
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toContain(STALE_INSIGHT_MESSAGE));

    await click(getControl('Reload'));
    await waitFor(() => expect(api.calls(`GET ${API}/insights/4`).length).toBeGreaterThan(1));
    await waitFor(() => expect(document.querySelector('[role="alert"]')).toBeNull());
    expect(getField('Title').value).toBe('Mine');
    await click(getControl('Save'));
    await waitFor(() => expect(api.calls(`PUT ${API}/insights/4`)).toHaveLength(2));
    expect(api.calls(`PUT ${API}/insights/4`)[1]!.body).toMatchObject({ version: 3, title: 'Mine' });
  });

  it('says when the insight does not exist or is hidden', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/insights/4`]: jsonResponse({ message: 'Insight not found.' }, 404),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Key insight not found'));
  });
});
