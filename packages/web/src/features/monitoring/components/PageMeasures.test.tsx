import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, waitFor } from '../../../test/render';
import { chart, points, series, summary } from './charts-test-fixtures';
import { PageMeasures } from './PageMeasures';
import { API, BASE, openMonitoringScreen, sessionRoutes } from './pages-test-fixtures';

vi.mock('../../../components/spc/SpcChart', () => ({
  default: (props: { title: string }) => <div data-testid="spc-chart" data-title={props.title} />,
}));

const SECTIONS = ['pages', 'page-charts', 'formula-builder'];

function routes(options: { measures?: boolean; sections?: string[]; chartsEdit?: boolean } = {}) {
  const { measures = true, sections = SECTIONS, chartsEdit = true } = options;
  return {
    ...sessionRoutes(),
    'GET /api/me/permissions': jsonResponse({
      permissions: Object.fromEntries(sections.map((s) => [`monitoring:${s}`, true])),
    }),
    [`GET ${API}/pages/5/measure-summary`]: jsonResponse({
      measures: measures
        ? [
            summary({
              measure_id: 9,
              name: 'Falls with injury',
              definition: {
                description: 'Falls that harmed the patient.',
                inclusions: 'Inpatients aged 18 and over.',
                exclusions: '',
                data_source: 'Incident reporting system',
                owner: '',
                collection_plan: '',
              },
            }),
          ]
        : [],
    }),
    [`GET ${API}/pages/5/charts`]: jsonResponse({
      charts: measures ? [chart({ id: 7, title: 'Falls chart' })] : [],
      abilities: { edit: chartsEdit },
    }),
    [`GET ${API}/measures/9/series`]: jsonResponse(
      series(
        points(3, (i) => (i === 2 ? { signals: ['outside_limits'], variation: 'concern', value: 30 } : {})),
        {
          chart: 'u',
          summary: { ...series([]).summary, trial: true, baseline_points: 3 },
        },
      ),
    ),
  };
}

const open = (canEdit = true) =>
  openMonitoringScreen(
    `${BASE}/pages/page/5`,
    ['pages/page/:pageId'],
    <>
      <h1>Falls</h1>
      <PageMeasures pageId={5} canEdit={canEdit} />
    </>,
  );

describe('PageMeasures', () => {
  it("shows the summary, each chart and the definitions, with the editors' links", async () => {
    stubApi(routes());
    await open();
    await waitFor(() => expect(document.querySelector('[data-measure-id="9"]')).not.toBeNull());
    await waitFor(() =>
      expect(document.querySelector('[data-testid="spc-chart"]')?.getAttribute('data-title')).toBe('Falls chart'),
    );
    expect(text()).toContain('Trial limits: computed from 3 points');
    const definitions = text(document.querySelector('[data-section="measure-definitions"]')!);
    expect(definitions).toContain('Falls that harmed the patient.');
    expect(definitions).toContain('Inpatients aged 18 and over.');
    expect(definitions).toContain('Data source');
    expect(definitions).not.toContain('Excluded');
    expect(definitions).toContain('The sum of falls with injury divided by the sum of patient days, times 1,000.');
    await waitFor(() => expect(getControl('Manage charts').getAttribute('href')).toBe(`${BASE}/page-charts?page=5`));
    expect(getControl('Define measures').getAttribute('href')).toBe(`${BASE}/formula-builder?page=5`);
    // No add-standards section in the map: no link to it.
    expect(document.querySelector('[aria-label="Standards of Falls with injury"]')).toBeNull();
  });

  it('links each measure to its standards for those the add-standards section allows', async () => {
    stubApi(routes({ sections: [...SECTIONS, 'add-standards'] }));
    await open();
    await waitFor(() => expect(document.querySelector('[aria-label="Standards of Falls with injury"]')).not.toBeNull());
    expect(document.querySelector('[aria-label="Standards of Falls with injury"]')?.getAttribute('href')).toBe(
      `${BASE}/add-standards?page=5&measure=9`,
    );
  });

  it('switches a chart to its data table, with the signals named', async () => {
    stubApi(routes());
    await open();
    await waitFor(() => expect(document.querySelector('[data-testid="spc-chart"]')).not.toBeNull());
    await click(getField('Show data table'));
    await waitFor(() => expect(document.querySelector('[data-testid="spc-chart"]')).toBeNull());
    const rows = [...document.querySelectorAll('[data-section="charts"] tbody tr')];
    expect(rows).toHaveLength(3);
    expect(text(rows[2]!)).toContain('Mar 2024');
    expect(text(rows[2]!)).toContain('30%');
    expect(text(rows[2]!)).toContain('Concern');
    expect(text(rows[2]!)).toContain('A point outside the control limits');
    const csv = getControl('Export CSV');
    expect(csv.getAttribute('href')).toBe(`${API}/measures/9/series.csv?chart=u`);
    expect(csv.hasAttribute('download')).toBe(true);
  });

  it("says when the page has no measures, and hides the editors' links from readers", async () => {
    stubApi(routes({ measures: false, sections: ['pages'], chartsEdit: false }));
    await open(false);
    await waitFor(() => expect(text()).toContain('No measures on this page yet.'));
    expect(document.querySelector('[data-section="charts"]')).toBeNull();
    expect(document.querySelector('[data-section="measure-definitions"]')).toBeNull();
    expect(() => getControl('Manage charts')).toThrow();
    expect(() => getControl('Define measures')).toThrow();
  });
});
