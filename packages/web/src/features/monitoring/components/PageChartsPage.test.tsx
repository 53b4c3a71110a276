import type { Chart } from '@portal/shared';
import { describe, expect, it, vi } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { chart, measure, points, series } from './charts-test-fixtures';
import { PageChartsPage } from './PageChartsPage';
import { API, BASE, detail, dialog, node, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';
import { pick } from './structure-test-helpers';

// jsdom has no canvas: the chart itself is replaced; its options are tested in spc-chart-options.test.ts.
vi.mock('../../../components/spc/SpcChart', () => ({
  default: (props: { title: string; series: { points: unknown[] } }) => (
    <div data-testid="spc-chart" data-title={props.title} data-points={props.series.points.length} />
  ),
}));

const PAGE = detail({ id: 5, title: 'Falls', number: '1.2' });
const TREE = {
  pages: [node({ id: 4, title: 'Safety', number: '1' }), node({ id: 5, title: 'Falls', number: '1.2', depth: 2 })],
  numbering_mode: 'auto',
  max_depth: 8,
};
const FALLS = chart({ id: 7, title: 'Falls chart', position: 0, version: 3 });
const INJURY = chart({ id: 8, title: 'Injury chart', position: 1, version: 1 });

function routes(charts: Chart[], options: { edit?: boolean; measures?: number } = {}) {
  const { edit = true, measures = 1 } = options;
  return {
    ...sessionRoutes(),
    [`GET ${API}/pages`]: jsonResponse(TREE),
    [`GET ${API}/pages/5`]: jsonResponse(PAGE),
    [`GET ${API}/pages/5/charts`]: jsonResponse({ charts, abilities: { edit } }),
    [`GET ${API}/pages/5/measures`]: jsonResponse({
      measures: measures > 0 ? [measure({ id: 9, name: 'Falls with injury' })] : [],
      abilities: { edit },
    }),
    [`GET ${API}/measures/9/series`]: jsonResponse(series(points(12), { chart: 'u' })),
  };
}

const open = (query = '?page=5') =>
  openMonitoringScreen(`${BASE}/page-charts${query}`, ['page-charts'], <PageChartsPage />);

describe('PageChartsPage', () => {
  it('asks for a page first and keeps the choice in the URL', async () => {
    stubApi(routes([FALLS]));
    const router = await open('');
    await waitFor(() => expect(text()).toContain('Choose a page to see and arrange its charts.'));
    await pick('Page', '— 1.2 Falls');
    await waitFor(() => expect(router.state.location.search).toBe('?page=5'));
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Charts of 1.2 Falls'));
    await waitFor(() => expect(document.querySelector('[data-testid="spc-chart"]')).not.toBeNull());
  });

  it('shows each chart in page order with its series, an Export CSV link and edit links', async () => {
    const api = stubApi(routes([INJURY, FALLS]));
    await open();
    await waitFor(() => expect(document.querySelectorAll('[data-testid="spc-chart"]')).toHaveLength(2));
    // In page order, whatever order the list came in.
    const titles = [...document.querySelectorAll('[data-testid="spc-chart"]')].map((el) =>
      el.getAttribute('data-title'),
    );
    expect(titles).toEqual(['Falls chart', 'Injury chart']);
    expect(api.calls(`GET ${API}/measures/9/series`)[0]!.query.get('chart')).toBe('u');
    const csv = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Export CSV');
    expect(csv?.getAttribute('href')).toBe(`${API}/measures/9/series.csv?chart=u`);
    expect(getControl('Add chart').getAttribute('href')).toBe(`${BASE}/add-page-chart?page=5`);
    expect(getControl('Edit', document.querySelector('[data-chart-id="7"]')!).getAttribute('href')).toBe(
      `${BASE}/edit-page-chart/7`,
    );
  });

  it('says when the page has no charts, and sends to the formula builder when it has no measures', async () => {
    stubApi(routes([], { measures: 0 }));
    await open();
    await waitFor(() => expect(text()).toContain('No charts on this page yet.'));
    await waitFor(() =>
      expect(getControl('Define a measure first').getAttribute('href')).toBe(`${BASE}/formula-builder?page=5`),
    );
    expect(() => getControl('Add chart')).toThrow();
  });

  it('deletes a chart after confirmation', async () => {
    const api = stubApi({
      ...routes([FALLS]),
      [`DELETE ${API}/charts/7`]: new Response(null, { status: 204 }),
    });
    await open();
    await waitFor(() => expect(document.querySelector('[data-chart-id="7"]')).not.toBeNull());
    await click(getControl('Delete'));
    await waitFor(() => expect(dialog().textContent).toContain('Delete chart "Falls chart"?'));
    expect(api.calls(`DELETE ${API}/charts/7`)).toHaveLength(0);
    await click(getControl('Delete', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${API}/charts/7`)).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('Chart "Falls chart" deleted.'));
  });

  it('moves a chart down with the version it was read at', async () => {
    const api = stubApi({
      ...routes([FALLS, INJURY]),
      [`PUT ${API}/charts/7`]: (request: StubRequest) =>
        jsonResponse({ ...FALLS, ...(request.body as object), version: 4 }),
    });
    await open();
    await waitFor(() => expect(document.querySelector('[data-chart-id="8"]')).not.toBeNull());
    const first = document.querySelector<HTMLElement>('[data-chart-id="7"]')!;
    expect((getControl('Move up', first) as HTMLButtonElement).disabled).toBe(true);
    await click(getControl('Move down', first));
    await waitFor(() => expect(api.calls(`PUT ${API}/charts/7`)).toHaveLength(1));
    expect(api.calls(`PUT ${API}/charts/7`)[0]!.body).toEqual({ version: 3, position: 1 });
    await waitFor(() => expect(toasts()).toContain('Chart "Falls chart" moved.'));
  });

  it('offers no changes to those who may only read', async () => {
    stubApi(routes([FALLS], { edit: false }));
    await open();
    await waitFor(() => expect(document.querySelector('[data-testid="spc-chart"]')).not.toBeNull());
    for (const name of ['Add chart', 'Edit', 'Delete', 'Move up', 'Move down']) {
      expect(() => getControl(name)).toThrow();
    }
  });
});
