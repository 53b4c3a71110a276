import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { editorContent, installEditorLayoutStubs, typeInEditor } from '../../../components/RichTextEditor.testing';
import { resetDashboardAuditForTests } from '../../../lib/monitoring-audit';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { IntroductionPage } from './IntroductionPage';
import { MonitoringAppHeader } from './MonitoringAppHeader';
import { MonitoringHomePage } from './MonitoringHomePage';
import { API, BASE, node, openMonitoringScreen, sessionRoutes } from './pages-test-fixtures';

const PAGES = [
  node({ id: 1, title: 'Safety', number: '1', child_count: 2, restricted: true }),
  node({ id: 2, title: 'Falls', number: '1.1', parent_id: 1, depth: 2 }),
  node({ id: 5, title: 'Access', number: '2', status: 'draft' }),
];

describe('MonitoringHomePage', () => {
  beforeEach(() => resetDashboardAuditForTests());

  it('records the visit, links where the role may go, and shows the top-level pages as cards', async () => {
    const api = stubApi({
      ...sessionRoutes(['page-levels']),
      [`GET ${API}/pages`]: jsonResponse({ pages: PAGES, numbering_mode: 'auto', max_depth: 3 }),
      [`POST ${API}/audit/dashboard-visit`]: new Response(null, { status: 204 }),
    });
    await openMonitoringScreen(
      BASE,
      [''],
      <>
        <MonitoringAppHeader />
        <MonitoringHomePage />
      </>,
    );
    await waitFor(() => expect(document.querySelectorAll('[data-page-id]')).toHaveLength(2));
    expect(document.querySelector('h1')?.textContent).toBe('Analytics');
    expect(text(document.querySelector('[data-page-id="1"]')!)).toContain('1 Safety');
    expect(text(document.querySelector('[data-page-id="1"]')!)).toContain('2 sub-pages');
    expect(text(document.querySelector('[data-page-id="5"]')!)).toContain('Draft');
    expect(getControl('Pages').getAttribute('href')).toBe(`${BASE}/pages`);
    expect(getControl('New page').getAttribute('href')).toBe(`${BASE}/create-page`);
    expect(() => getControl('Page levels')).toThrow();
    const header = document.querySelector('nav[aria-label="Analytics"]')!;
    expect([...header.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Home',
      'Introduction',
      'Pages',
      'Permissions',
    ]);
    expect(header.querySelector('[aria-current="page"]')?.textContent).toBe('Home');
    await waitFor(() => expect(api.calls(`POST ${API}/audit/dashboard-visit`)).toHaveLength(1));
  });
});

describe('IntroductionPage', () => {
  beforeAll(() => installEditorLayoutStubs());

  it('shows the sanitised overview and lets an administrator change it', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/introduction`]: jsonResponse({
        introduction: '<p>Our programme.</p><script>window.x = 1</script>',
        can_edit: true,
        top_pages: [{ id: 1, number: '1', title: 'Safety', status: 'published', child_count: 3 }],
        updated_at: null,
      }),
      [`PUT ${API}/introduction`]: (request) =>
        jsonResponse({
          introduction: (request.body as { introduction: string }).introduction,
          can_edit: true,
          top_pages: [],
          updated_at: '2026-03-01T00:00:00Z',
        }),
    });
    await openMonitoringScreen(`${BASE}/introduction`, ['introduction'], <IntroductionPage />);
    await waitFor(() => expect(text()).toContain('Our programme.'));
    expect(document.querySelector('[aria-label="Programme introduction"]')!.innerHTML).not.toContain('script');
    expect(getControl('1 Safety').getAttribute('href')).toBe(`${BASE}/pages/page/1`);
    await click(getControl('Edit introduction'));
    await typeInEditor(editorContent('Introduction'), 'A new overview.');
    await click(getControl('Save'));
    await waitFor(() => expect(api.calls(`PUT ${API}/introduction`)).toHaveLength(1));
    expect((api.calls(`PUT ${API}/introduction`)[0]!.body as { introduction: string }).introduction).toContain(
      'A new overview.',
    );
    await waitFor(() => expect(text()).toContain('A new overview.'));
  });

  it('offers no edit to people who are not administrators', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/introduction`]: jsonResponse({ introduction: '', can_edit: false, top_pages: [], updated_at: null }),
    });
    await openMonitoringScreen(`${BASE}/introduction`, ['introduction'], <IntroductionPage />);
    await waitFor(() => expect(text()).toContain('No introduction has been written yet.'));
    expect(text()).toContain('No pages found.');
    expect(() => getControl('Edit introduction')).toThrow();
  });
});
