import { STALE_CHART_MESSAGE } from '@portal/shared';
import { describe, expect, it, vi } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, typeInto, waitFor } from '../../../test/render';
import { ChartFormPage } from './ChartFormPage';
import { chart, measure, points, series } from './charts-test-fixtures';
import { API, BASE, detail, dialog, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';
import { field, pick } from './structure-test-helpers';

vi.mock('../../../components/spc/SpcChart', () => ({
  default: (props: { title: string; series: { chart: string } }) => (
    <div data-testid="spc-chart" data-title={props.title} data-chart={props.series.chart} />
  ),
}));

const PAGE = detail({ id: 5, title: 'Falls', number: '1.2' });
const FALLS = measure({ id: 9, name: 'Falls with injury', type: 'rate', chart_default: 'u' });
const HYGIENE = measure({
  id: 10,
  name: 'Hand hygiene',
  type: 'proportion',
  chart_default: 'p',
  strata_keys: ['ward'],
  rule_profile: 'anhoej',
});
const SAVED = chart({ id: 7, title: 'Falls on wards', version: 3 });

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...sessionRoutes(),
    [`GET ${API}/pages/5`]: jsonResponse(PAGE),
    [`GET ${API}/pages/5/measures`]: jsonResponse({ measures: [FALLS, HYGIENE], abilities: { edit: true } }),
    [`GET ${API}/measures/9/series`]: (request: StubRequest) =>
      jsonResponse(series(points(12), { chart: (request.query.get('chart') ?? 'u') as 'u', strata: [] })),
    [`GET ${API}/measures/10/series`]: (request: StubRequest) =>
      jsonResponse(
        series(points(12), { chart: (request.query.get('chart') ?? 'p') as 'p', strata: ['North', 'South'] }),
      ),
    ...extra,
  } as Parameters<typeof stubApi>[0];
}

const openCreate = () =>
  openMonitoringScreen(
    `${BASE}/add-page-chart?page=5`,
    ['add-page-chart', 'edit-page-chart/:chartId'],
    <ChartFormPage mode="create" />,
  );
const openEdit = () =>
  openMonitoringScreen(`${BASE}/edit-page-chart/7`, ['edit-page-chart/:chartId'], <ChartFormPage mode="edit" />);

const descriptionOf = (label: string) => {
  const input = field(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
};

describe('ChartFormPage', () => {
  it('recommends the chart for the measure type, previews live and adds the chart', async () => {
    const api = stubApi(
      routes({
        [`POST ${API}/pages/5/charts`]: (request: StubRequest) =>
          jsonResponse(chart({ id: 11, title: 'Hand hygiene', ...(request.body as object) }), 201),
      }),
    );
    const router = await openCreate();
    await waitFor(() => expect(getField('Title').value).toBe('Falls with injury'));
    expect(descriptionOf('Chart type')).toContain('Recommended for a rate measure: U chart (rates).');
    expect(field('Chart type').value).toBe('U chart (rates) (recommended)');
    await waitFor(() =>
      expect(document.querySelector('[data-testid="spc-chart"]')?.getAttribute('data-chart')).toBe('u'),
    );

    await pick('Measure', 'Hand hygiene');
    await waitFor(() => expect(getField('Title').value).toBe('Hand hygiene'));
    expect(descriptionOf('Chart type')).toContain('Recommended for a proportion measure: P chart (proportions).');
    expect(field('Chart type').value).toBe('P chart (proportions) (recommended)');
    await waitFor(() => expect(api.calls(`GET ${API}/measures/10/series`).length).toBeGreaterThan(0));

    // The preview follows the choices: stratum (from the series' strata), rules, chart type.
    await pick('Stratum (ward)', 'South');
    await pick('Rules for signals', 'Nelson');
    await pick('Chart type', "P' chart (Laney, large denominators)");
    await waitFor(() => {
      const last = api.calls(`GET ${API}/measures/10/series`).at(-1)!;
      expect(Object.fromEntries(last.query)).toEqual({ chart: 'pprime', stratum: 'South', rule_profile: 'nelson' });
    });
    await click(getField('2σ lines'));
    await click(getField('Show benchmarks'));
    await typeInto(getField('From'), '2025-01');

    await click(getControl('Add chart'));
    await waitFor(() => expect(api.calls(`POST ${API}/pages/5/charts`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/pages/5/charts`)[0]!.body).toEqual({
      measure_id: 10,
      title: 'Hand hygiene',
      chart_type: 'pprime',
      options: {
        stratum: 'South',
        from: '2025-01-01',
        to: null,
        sigma_lines: [2],
        show_target: true,
        show_benchmark: false,
        show_annotations: true,
        rule_profile: 'nelson',
      },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/page-charts`));
    expect(router.state.location.search).toBe('?page=5');
    await waitFor(() => expect(toasts()).toContain('Chart "Hand hygiene" added.'));
  });

  it('keeps a title someone wrote when the measure changes, and checks the fields before saving', async () => {
    const api = stubApi(routes());
    await openCreate();
    await waitFor(() => expect(getField('Title').value).toBe('Falls with injury'));
    await typeInto(getField('Title'), '');
    await typeInto(getField('From'), '2026-03');
    await typeInto(getField('To'), '2025-01');
    await click(getControl('Add chart'));
    await waitFor(() => expect(text()).toContain('Enter a title.'));
    expect(text()).toContain('The end is on or after the start.');
    expect(api.calls(`POST ${API}/pages/5/charts`)).toHaveLength(0);

    await typeInto(getField('Title'), 'My falls');
    await pick('Measure', 'Hand hygiene');
    expect(getField('Title').value).toBe('My falls');
  });

  it('edits a chart with its version, and on 409 offers to reload their version', async () => {
    const theirs = { ...SAVED, title: 'Their title', version: 4 };
    const api = stubApi(
      routes({
        [`GET ${API}/charts/7`]: [jsonResponse(SAVED), jsonResponse(theirs)],
        [`PUT ${API}/charts/7`]: jsonResponse({ message: STALE_CHART_MESSAGE, errors: { version: ['4'] } }, 409),
      }),
    );
    await openEdit();
    await waitFor(() => expect(getField('Title').value).toBe('Falls on wards'));
    expect(text()).toContain('Page 1.2 Falls');
    await typeInto(getField('Title'), 'Mine');
    await click(getControl('Save chart'));
    await waitFor(() => expect(api.calls(`PUT ${API}/charts/7`)).toHaveLength(1));
    expect(api.calls(`PUT ${API}/charts/7`)[0]!.body).toMatchObject({
      version: 3,
      measure_id: 9,
      title: 'Mine',
      chart_type: 'u',
    });
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toContain(STALE_CHART_MESSAGE));
    await click(getControl('Reload'));
    await waitFor(() => expect(getField('Title').value).toBe('Their title'));
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });

  it('asks before leaving with unsaved changes', async () => {
    stubApi(routes());
    const router = await openCreate();
    await waitFor(() => expect(getField('Title').value).toBe('Falls with injury'));
    await typeInto(getField('Title'), 'Changed');
    await click(getControl('Cancel'));
    await waitFor(() => expect(dialog().textContent).toContain('Your changes to this chart are not saved.'));
    await click(getControl('Leave', dialog()));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${BASE}/page-charts`));
  });

  it('says when the chart is not there', async () => {
    stubApi(routes({ [`GET ${API}/charts/7`]: jsonResponse({ message: 'Chart not found.' }, 404) }));
    await openEdit();
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Chart not found'));
  });
});
