import type { Dataset, MeasureDetail, Series } from '@portal/shared';
import { STALE_MEASURE_MESSAGE } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { measureDetail } from './charts-test-fixtures';
import { FormulaBuilderPage } from './FormulaBuilderPage';
import { API, BASE, dialog, node, openMonitoringScreen, sessionRoutes, toasts } from './pages-test-fixtures';
import { field, pick } from './structure-test-helpers';

const VIEW_ONLY = { level: 'view', edit: false, delete: false, manage_permissions: false, add_insight: false } as const;
const PAGES = [
  node({ id: 1, title: 'Safety', number: '1', child_count: 2 }),
  node({ id: 2, title: 'Falls', number: '1.1', parent_id: 1, depth: 2 }),
  node({ id: 3, title: 'Pressure injuries', number: '1.2', parent_id: 1, depth: 2, abilities: VIEW_ONLY }),
];

const DATASET: Dataset = {
  id: 5,
  name: 'Ward census',
  description: '',
  time_column: 'month',
  columns: [
    { key: 'month', label: 'Month', type: 'date', phi: false },
    { key: 'ward', label: 'Ward', type: 'text', phi: false },
    { key: 'falls', label: 'Falls with injury', type: 'number', phi: false },
    { key: 'patient_days', label: 'Patient days', type: 'number', phi: false },
    { key: 'observed', label: 'Observed moments', type: 'number', phi: false },
    { key: 'compliant', label: 'Compliant moments', type: 'number', phi: false },
  ],
  patient_level: false,
  retention_months: null,
  version: 3,
  row_count: 1200,
  first_date: '2024-01-01',
  last_date: '2026-03-31',
  measure_count: 1,
  updated_at: '2026-04-01T10:00:00Z',
  abilities: { import: true, manage: false },
};

/** What a new measure sends when no definition field is filled in. */
const BLANK_DEFINITION = {
  description: '',
  inclusions: '',
  exclusions: '',
  data_source: '',
  owner: '',
  collection_plan: '',
};

/** Measure 40 at formula version 2. */
function measure(overrides: Partial<MeasureDetail> = {}): MeasureDetail {
  return measureDetail({ formula_version: 2, version: 5, ...overrides });
}

const point = (period: string, label: string, numerator: number, denominator: number) => ({
  period,
  label,
  rows: 4,
  numerator,
  denominator,
  value: (numerator / denominator) * 100,
  gap: null,
  excluded: false,
  provisional: false,
  phase: 0,
  cl: 90,
  ucl: 99,
  lcl: 81,
  ucl2: null,
  lcl2: null,
  ucl1: null,
  lcl1: null,
  signals: [],
  variation: 'common' as const,
  target: null,
});

const SERIES: Series = {
  measure_id: null,
  chart: 'p',
  rule_profile: 'anhoej',
  grain: 'month',
  unit_label: '%',
  multiplier: 100,
  direction: 'up',
  stratum: null,
  strata: [],
  points: [point('2026-02-01', 'Feb 2026', 90, 100), point('2026-03-01', 'Mar 2026', 45, 50)],
  summary: {
    variation: 'common',
    assurance: null,
    trial: true,
    baseline_points: 2,
    useful_points: 2,
    longest_run: 1,
    crossings: 0,
    run_limit: null,
    crossing_limit: null,
  },
  benchmarks: [],
  annotations: [],
  phases: [],
  formula_version: 0,
  formula_hash: null,
  dataset_version: 3,
  computed_at: '2026-04-02T10:00:00Z',
  compute_ms: 4,
  empty_reason: null,
};

const VERSIONS = {
  versions: [
    {
      version: 2,
      dataset: { id: 5, name: 'Ward census' },
      numerator: 'sum(falls)',
      denominator: 'sum(patient_days)',
      value_expr: '',
      hash: 'abc',
      note: 'Injury falls only.',
      phase_start: '2026-01-01',
      created_at: '2026-01-05T10:00:00Z',
      created_by: { id: 30, name: 'Owen Owner' },
    },
  ],
};

const VALID = { ok: true, errors: [], columns: [], explanation: 'the sum of the column', preview: [] };

function server(routes: Record<string, StubHandler | StubHandler[]> = {}, measures: MeasureDetail[] = [measure()]) {
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/pages`]: () => jsonResponse({ pages: PAGES, numbering_mode: 'auto', max_depth: 3 }),
    [`GET ${API}/datasets`]: () => jsonResponse({ datasets: [DATASET] }),
    [`GET ${API}/pages/2/measures`]: () => jsonResponse({ measures, abilities: { edit: true } }),
    [`GET ${API}/measures/40`]: () => jsonResponse(measure()),
    [`GET ${API}/measures/40/formula-versions`]: () => jsonResponse(VERSIONS),
    [`POST ${API}/formulas/validate`]: () => jsonResponse(VALID),
    [`POST ${API}/formulas/preview`]: () => jsonResponse(SERIES),
    ...routes,
  });
}

const open = (query = '') =>
  openMonitoringScreen(`${BASE}/formula-builder${query}`, ['formula-builder'], <FormulaBuilderPage />);
const area = (label: string) => field(label) as unknown as HTMLTextAreaElement;

describe('FormulaBuilderPage', () => {
  it('offers the pages the user may edit, keeps the choice in the URL and says when a page has no measures', async () => {
    server({ [`GET ${API}/pages/1/measures`]: jsonResponse({ measures: [], abilities: { edit: true } }) });
    const router = await open();
    await waitFor(() => expect(field('Page')).toBeDefined());
    await click(field('Page'));
    const listbox = document.getElementById(field('Page').getAttribute('aria-controls') ?? '');
    await waitFor(() =>
      expect([...(listbox?.querySelectorAll('[role="option"]') ?? [])].map((option) => option.textContent)).toEqual([
        '1 Safety',
        '— 1.1 Falls',
      ]),
    );
    await pick('Page', '1 Safety');
    await waitFor(() => expect(router.state.location.search).toBe('?page=1'));
    await waitFor(() => expect(text()).toContain('No measures on this page yet. Add one to define what is counted.'));
    await click(getControl('New measure'));
    await waitFor(() => expect(router.state.location.search).toBe('?page=1&measure=new'));
  });

  it('lists the page measures and opens one with its definition history', async () => {
    server();
    await open('?page=2&measure=40');
    await waitFor(() => expect(field('Name').value).toBe('Falls with injury'));
    expect(field('Page').value).toBe('— 1.1 Falls');
    const nav = document.querySelector('nav[aria-label="Measures of this page"]')!;
    expect(text(nav)).toContain('Falls with injury');
    expect(area('Numerator').value).toBe('sum(falls)');
    expect(area('Denominator').value).toBe('sum(patient_days)');
    expect(field('Default chart').value).toBe('U chart (rates) (recommended)');
    await waitFor(() => expect(text()).toContain('Version 2'));
    expect(text()).toContain('Injury falls only.');
    expect(text()).toContain('A new phase starts on Jan 1, 2026.');
  });

  it('creates a proportion measure with the defaults of its type and the right body', { timeout: 60_000 }, async () => {
    const created = measure({
      id: 41,
      name: 'Hand hygiene compliance',
      type: 'proportion',
      numerator: 'sum(compliant)',
      denominator: 'sum(observed)',
      multiplier: 100,
      unit_label: '%',
      direction: 'up',
      chart_default: 'p',
      formula_version: 1,
      version: 1,
    });
    const api = server(
      {
        [`POST ${API}/pages/2/measures`]: jsonResponse(created, 201),
        [`GET ${API}/measures/41`]: jsonResponse(created),
        [`GET ${API}/measures/41/formula-versions`]: jsonResponse({ versions: [] }),
      },
      [],
    );
    const router = await open('?page=2&measure=new');
    await waitFor(() => expect(field('Name')).toBeDefined());
    // The only dataset is chosen.
    expect(field('Dataset').value).toBe('Ward census');
    await typeInto(field('Name'), 'Hand hygiene compliance');

    // A rate is per 1,000 of its exposure.
    await typeInto(area('Denominator'), 'sum(patient_days)');
    await pick('Type', 'Rate (events per exposure, e.g. per 1,000 patient days)');
    expect(field('Multiplier').value).toBe('1,000');
    expect(field('Unit').value).toBe('per 1,000 patient days');
    expect(field('Direction of improvement').value).toBe('Lower is better');
    expect(field('Default chart').value).toBe('U chart (rates) (recommended)');

    await pick('Type', 'Proportion (numerator is part of the denominator)');
    expect(field('Multiplier').value).toBe('100');
    expect(field('Unit').value).toBe('%');
    expect(field('Direction of improvement').value).toBe('Higher is better');
    expect(field('Default chart').value).toBe('P chart (proportions) (recommended)');
    await typeInto(area('Numerator'), 'sum(compliant)');
    await typeInto(area('Denominator'), 'sum(observed)');

    // The whole measure, previewed on the current data.
    await waitFor(() => expect(document.querySelectorAll('[data-measure-preview] tbody tr')).toHaveLength(2), 3000);
    expect(api.calls(`POST ${API}/formulas/preview`).at(-1)!.body).toEqual({
      dataset_id: 5,
      type: 'proportion',
      numerator: 'sum(compliant)',
      denominator: 'sum(observed)',
      value_expr: '',
      multiplier: 100,
      grain: 'month',
    });
    const last = [...document.querySelectorAll('[data-measure-preview] tbody tr')].at(-1)!;
    expect([...last.children].map((cell) => cell.textContent)).toEqual(['Mar 2026', '45', '50', '90%', '4']);
    expect(text()).toContain('Common-cause variation only: no signal.');

    await click(getControl('Create measure'));
    await waitFor(() => expect(api.calls(`POST ${API}/pages/2/measures`)).toHaveLength(1));
    expect(api.calls(`POST ${API}/pages/2/measures`)[0]!.body).toEqual({
      name: 'Hand hygiene compliance',
      type: 'proportion',
      dataset_id: 5,
      numerator: 'sum(compliant)',
      denominator: 'sum(observed)',
      value_expr: '',
      multiplier: 100,
      unit_label: '%',
      direction: 'up',
      grain: 'month',
      strata_keys: [],
      definition: BLANK_DEFINITION,
      chart_default: 'p',
      rule_profile: 'anhoej',
      ihi_runs_test: 'swed_eisenhart',
      astronomical_point: 'i_chart',
      baseline_from: null,
      baseline_to: null,
    });
    await waitFor(() => expect(router.state.location.search).toBe('?page=2&measure=41'));
    await waitFor(() => expect(toasts()).toContain('Measure "Hand hygiene compliance" created.'));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('refuses to create a measure without a name or with a broken formula', async () => {
    const api = server({}, []);
    await open('?page=2&measure=new');
    await waitFor(() => expect(field('Name')).toBeDefined());
    await typeInto(area('Numerator'), 'sum(compliant');
    await click(getControl('Create measure'));
    expect(text()).toContain('Enter a name.');
    expect(text()).toContain('Enter the denominator.');
    expect(api.calls(`POST ${API}/pages/2/measures`)).toHaveLength(0);
  });

  it('saves a changed formula as a new version with its note and phase', async () => {
    const api = server({
      [`PUT ${API}/measures/40`]: jsonResponse(
        measure({ numerator: 'countIf(falls > 0)', formula_version: 3, version: 6 }),
      ),
    });
    await open('?page=2&measure=40');
    await waitFor(() => expect(field('Name').value).toBe('Falls with injury'));
    expect(getControl('Save').hasAttribute('disabled')).toBe(true);
    await typeInto(area('Numerator'), 'countIf(falls > 0)');
    await click(getControl('Save'));
    await waitFor(() =>
      expect(text(dialog())).toContain('Changing the definition records version 3. Old points keep their history.'),
    );
    expect(api.calls(`PUT ${API}/measures/40`)).toHaveLength(0);
    await typeInto(field('Note', dialog()), 'Count patients who fell, not falls.');
    expect(field('Phase starts', dialog()).disabled).toBe(true);
    await click(field('Start a new phase from', dialog()));
    await typeInto(field('Phase starts', dialog()), '2026-02-15');
    await click(getControl('Save version 3', dialog()));
    await waitFor(() => expect(api.calls(`PUT ${API}/measures/40`)).toHaveLength(1));
    expect(api.calls(`PUT ${API}/measures/40`)[0]!.body).toEqual({
      numerator: 'countIf(falls > 0)',
      version: 5,
      formula_note: 'Count patients who fell, not falls.',
      phase_start: '2026-02-01',
    });
    await waitFor(() => expect(toasts()).toContain('Measure "Falls with injury" saved.'));
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
  });

  it('offers the IHI run chart options only with the IHI rules and saves the one changed', async () => {
    const api = server({
      [`PUT ${API}/measures/40`]: jsonResponse(measure({ rule_profile: 'ihi_run', astronomical_point: 'off' })),
    });
    await open('?page=2&measure=40');
    await waitFor(() => expect(field('Name').value).toBe('Falls with injury'));
    expect(document.body.textContent).not.toContain('Astronomical data point');
    await pick('Rule profile', 'IHI run chart rules (shift, trend, runs, astronomical point)');
    expect(field('Number of runs').value).toBe('Too few or too many (Swed-Eisenhart)');
    expect(field('Astronomical data point').value).toBe('Flag beyond 3 sigma of the median');
    await pick('Astronomical data point', 'Do not flag (judge by eye)');
    await click(getControl('Save'));
    await waitFor(() => expect(api.calls(`PUT ${API}/measures/40`)).toHaveLength(1));
    expect(api.calls(`PUT ${API}/measures/40`)[0]!.body).toEqual({
      rule_profile: 'ihi_run',
      astronomical_point: 'off',
      version: 5,
    });
  });

  it('shows the stale message on 409 and reloads the measure', async () => {
    const api = server({
      [`PUT ${API}/measures/40`]: jsonResponse({ message: STALE_MEASURE_MESSAGE }, 409),
      [`GET ${API}/measures/40`]: [
        jsonResponse(measure()),
        jsonResponse(measure({ name: 'Falls with harm', version: 6 })),
      ],
    });
    await open('?page=2&measure=40');
    await waitFor(() => expect(field('Name').value).toBe('Falls with injury'));
    await typeInto(field('Name'), 'Falls (injury)');
    await click(getControl('Save'));
    await waitFor(() => expect(api.calls(`PUT ${API}/measures/40`)).toHaveLength(1));
    // A name is not a definition: no version dialog.
    expect(api.calls(`PUT ${API}/measures/40`)[0]!.body).toEqual({ name: 'Falls (injury)', version: 5 });
    await waitFor(() => expect(text(document.querySelector('[role="alert"]')!)).toContain(STALE_MEASURE_MESSAGE));
    await click(getControl('Reload'));
    await waitFor(() => expect(field('Name').value).toBe('Falls with harm'));
    expect(text()).not.toContain(STALE_MEASURE_MESSAGE);
  });

  it('deletes a measure after confirming and goes back to the page list', async () => {
    const api = server({ [`DELETE ${API}/measures/40`]: new Response(null, { status: 204 }) });
    const router = await open('?page=2&measure=40');
    await waitFor(() => expect(field('Name').value).toBe('Falls with injury'));
    await click(getControl('Delete measure'));
    await waitFor(() =>
      expect(text(dialog())).toContain('Delete measure "Falls with injury"? Its charts are removed too.'),
    );
    await click(getControl('Delete', dialog()));
    await waitFor(() => expect(api.calls(`DELETE ${API}/measures/40`)).toHaveLength(1));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(toasts()).toContain('Measure "Falls with injury" deleted.');
  });

  it('asks before leaving unsaved changes for another measure', async () => {
    server({}, [measure(), measure({ id: 42, name: 'Falls at night' })]);
    const router = await open('?page=2&measure=40');
    await waitFor(() => expect(field('Name').value).toBe('Falls with injury'));
    await typeInto(field('Name'), 'Falls (all)');
    const other = [...document.querySelectorAll<HTMLElement>('nav[aria-label="Measures of this page"] a')].find((a) =>
      a.textContent?.includes('Falls at night'),
    )!;
    await click(other);
    await waitFor(() => expect(text(dialog())).toContain('Your changes to this measure are not saved.'));
    await click(getControl('Stay on this page', dialog()));
    expect(router.state.location.search).toBe('?page=2&measure=40');
    expect(field('Name').value).toBe('Falls (all)');
  });

  it('shows a page the user may only read without editing controls', async () => {
    server({
      [`GET ${API}/pages/3/measures`]: jsonResponse({
        measures: [measure({ id: 43, page_id: 3 })],
        abilities: { edit: false },
      }),
      [`GET ${API}/measures/43`]: jsonResponse(measure({ id: 43, page_id: 3, abilities: { edit: false } })),
      [`GET ${API}/measures/43/formula-versions`]: jsonResponse({ versions: [] }),
    });
    await open('?page=3&measure=43');
    await waitFor(() => expect(field('Name').value).toBe('Falls with injury'));
    expect(text()).toContain('You may read this measure but not change it.');
    expect(() => getControl('New measure')).toThrow();
    expect(() => getControl('Save')).toThrow();
    expect(() => getControl('Add target')).toThrow();
    expect(field('Name').matches(':disabled')).toBe(true);
  });
});
