import { beforeEach, describe, expect, it } from 'vitest';
import { resetDashboardAuditForTests } from '../../../lib/monitoring-audit';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { getControl, text, waitFor } from '../../../test/render';
import { PageViewPage } from './PageViewPage';
import { API, BASE, detail, openMonitoringScreen, sessionRoutes } from './pages-test-fixtures';

const FALLS = detail({
  id: 2,
  title: 'Falls',
  number: '1.1',
  parent_id: 1,
  depth: 2,
  status: 'published',
  level: { id: 2, name: 'Programme', icon: 'layers' },
  owner: { id: 30, name: 'Owen Owner' },
  introduction:
    '<p>Why falls matter.</p><script>window.hacked = true</script><img src="x" onerror="window.hacked = true">',
  benchmarks: '<p>NDNQI median 2.1 per 1,000 patient days.</p>',
  parameters_and_metrics: '',
  ancestors: [{ id: 1, number: '1', title: 'Safety' }],
  children: [{ id: 3, number: '1.1.1', title: 'Falls with harm', status: 'draft' }],
  updated_at: '2026-03-04T10:00:00Z',
  updated_by: { id: 30, name: 'Owen Owner' },
});

const open = (id = 2) => openMonitoringScreen(`${BASE}/pages/page/${id}`, ['pages/page/:pageId'], <PageViewPage />);

describe('PageViewPage', () => {
  beforeEach(() => resetDashboardAuditForTests());

  it('shows the page: breadcrumb, header, sanitised sections, sub-pages, and records the visit', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/pages/2`]: jsonResponse(FALLS),
      [`POST ${API}/audit/dashboard-visit`]: new Response(null, { status: 204 }),
    });
    await open();
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('1.1 Falls'));
    const crumbs = [...document.querySelectorAll('nav[aria-label="Breadcrumb"] a, .mantine-Breadcrumbs-root a')];
    expect(crumbs.map((a) => a.textContent)).toEqual(['Pages', '1 Safety']);
    expect(crumbs[1]!.getAttribute('href')).toBe(`${BASE}/pages/page/1`);
    expect(text()).toContain('Owner: Owen Owner');
    expect(text()).toContain('Last updated March 4, 2026 by Owen Owner');
    const section = (key: string) => document.querySelector(`[data-section="${key}"]`)!;
    expect(text(section('introduction'))).toContain('Why falls matter.');
    expect(section('introduction').innerHTML).not.toContain('script');
    expect(section('introduction').innerHTML).not.toContain('onerror');
    expect(text(section('benchmarks'))).toContain('NDNQI median');
    expect(text(section('parameters_and_metrics'))).toContain('No parameters or metrics yet.');
    expect(getControl('1.1.1 Falls with harm').getAttribute('href')).toBe(`${BASE}/pages/page/3`);
    expect(getControl('Edit page').getAttribute('href')).toBe(`${BASE}/edit-page/2`);
    await waitFor(() => expect(api.calls(`POST ${API}/audit/dashboard-visit`)).toHaveLength(1));
  });

  it('offers no edit without the right to edit', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/pages/2`]: jsonResponse({
        ...FALLS,
        abilities: { level: 'view', edit: false, delete: false, manage_permissions: false, add_insight: false },
      }),
    });
    await open();
    await waitFor(() => expect(text()).toContain('Why falls matter.'));
    expect(() => getControl('Edit page')).toThrow();
  });

  it('says when the page is not there (or not shared), with a way back to the pages', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/pages/77`]: jsonResponse({ message: 'Page not found.' }, 404) });
    await open(77);
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Page not found'));
    expect(getControl('Back to the pages').getAttribute('href')).toBe(`${BASE}/pages`);
  });
});
