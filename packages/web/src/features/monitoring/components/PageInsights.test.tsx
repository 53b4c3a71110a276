import type { Insight } from '@portal/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { editorContent, installEditorLayoutStubs, typeInEditor } from '../../../components/RichTextEditor.testing';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { PageInsights } from './PageInsights';
import { API, BASE, dialog, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';

function insight(overrides: Partial<Insight> & Pick<Insight, 'id' | 'title'>): Insight {
  return {
    page_id: 5,
    body: '<p>Falls dropped by a fifth.</p>',
    status: 'published',
    author: { id: 3, name: 'Ada Admin' },
    published_at: '2026-03-02T10:00:00Z',
    updated_at: '2026-03-02T10:00:00Z',
    version: 1,
    abilities: { edit: false, publish: false, delete: false },
    ...overrides,
  };
}

const EDIT = { edit: true, publish: true, delete: true };
const PUBLISHED = insight({ id: 1, title: 'Falls fell', body: '<p>Down 20%</p><script>alert(1)</script>' });
const DRAFT = insight({ id: 2, title: 'Why it fell', status: 'draft', published_at: null, abilities: EDIT });

const open = (canEdit: boolean) =>
  openMonitoringScreen(
    `${BASE}/pages/page/5`,
    ['pages/page/:pageId'],
    <>
      <h1>Page</h1>
      <PageInsights pageId={5} canEdit={canEdit} />
    </>,
  );

const titles = () => [...document.querySelectorAll('[data-insight-id] h3')].map((h) => h.textContent);

describe('PageInsights', () => {
  beforeAll(() => installEditorLayoutStubs());

  it('shows the published insights to readers, sanitised, without editing controls', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/pages/5/insights`]: jsonResponse({ insights: [PUBLISHED] }) });
    await open(false);
    await waitFor(() => expect(titles()).toEqual(['Falls fell']));
    expect(text()).toContain('Down 20%');
    expect(document.querySelector('[data-insight-id] script')).toBeNull();
    expect(text()).toContain('Published Mar 2, 2026 by Ada Admin');
    expect(() => getControl('Add key insight')).toThrow();
    expect(() => getControl('Edit')).toThrow();
    expect(text()).not.toContain('Draft');
  });

  it('marks drafts for editors and links each insight to its editor', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/pages/5/insights`]: jsonResponse({ insights: [DRAFT, { ...PUBLISHED, abilities: EDIT }] }),
    });
    await open(true);
    await waitFor(() => expect(titles()).toEqual(['Why it fell', 'Falls fell']));
    const draftCard = document.querySelector('[data-insight-id="2"]')!;
    expect(text(draftCard)).toContain('Draft');
    expect(text(document.querySelector('[data-insight-id="1"]')!)).not.toContain('Draft,');
    expect(draftCard.querySelector('a')!.getAttribute('href')).toBe(`${BASE}/key-insights/edit/2`);
  });

  it('says there are none yet, with a hint for editors', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/pages/5/insights`]: jsonResponse({ insights: [] }) });
    await open(true);
    await waitFor(() => expect(text()).toContain('No key insights yet.'));
    expect(text()).toContain('Add one to say what the data on this page shows');
  });

  it('adds an insight: a title is needed first, then the body and status are posted', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/pages/5/insights`]: [jsonResponse({ insights: [] }), jsonResponse({ insights: [DRAFT] })],
      [`POST ${API}/pages/5/insights`]: (request: StubRequest) =>
        jsonResponse(insight({ id: 9, ...(request.body as { title: string }) }), 201),
    });
    await open(true);
    await waitFor(() => expect(text()).toContain('No key insights yet.'));
    await click(getControl('Add key insight'));
    await waitFor(() => expect(dialog()).toBeTruthy());
    await click(getControl('Publish', dialog()));
    expect(text(dialog())).toContain('Enter a title.');
    expect(api.calls(`POST ${API}/pages/5/insights`)).toHaveLength(0);

    await typeInto(getField('Title', dialog()), '  Fewer falls  ');
    await typeInEditor(editorContent('Insight'), 'Night rounds helped.');
    await click(getControl('Publish', dialog()));
    await waitFor(() => expect(api.calls(`POST ${API}/pages/5/insights`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/pages/5/insights`)[0]!.body).toEqual({
      title: 'Fewer falls',
      body: '<p>Night rounds helped.</p>',
      status: 'published',
    });
    await waitFor(() => expect(toasts()).toContain('Key insight published.'));
    await waitFor(() => expect(titles()).toEqual(['Why it fell']));
  });

  it('asks before deleting and deletes only after the confirmation', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/pages/5/insights`]: [jsonResponse({ insights: [DRAFT] }), jsonResponse({ insights: [] })],
      [`DELETE ${API}/insights/2`]: new Response(null, { status: 204 }),
    });
    await open(true);
    await waitFor(() => expect(titles()).toEqual(['Why it fell']));
    await click(document.querySelector<HTMLElement>('button[aria-label="Delete Why it fell"]')!);
    await waitFor(() => expect(text(dialog())).toContain('Delete the key insight "Why it fell"?'));
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`DELETE ${API}/insights/2`)).toHaveLength(0);

    await click(document.querySelector<HTMLElement>('button[aria-label="Delete Why it fell"]')!);
    await waitFor(() => expect(dialog()).toBeTruthy());
    await click(getControl('Delete', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${API}/insights/2`)).toHaveLength(1));
    await waitFor(() => expect(text()).toContain('No key insights yet.'));
  });
});
