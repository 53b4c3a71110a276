import type { CrDashboard } from '@portal/shared';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, field, labelled, openScreen, pick, rows, sessionRoutes } from './cr-test-fixtures';
import { DashboardProgramPage } from './DashboardProgramPage';

// jsdom has no canvas: the monitoring chart is replaced (CompliancePChart.test.tsx checks what it is given).
vi.mock('../../../components/spc/SpcChart', () => ({
  default: (props: { title: string }) => <div data-testid="spc-chart" data-title={props.title} />,
}));

const open = (query = '') =>
  openScreen(`${BASE}/dashboard/4${query}`, ['dashboard/:programId'], <DashboardProgramPage />);

const MARCH = { period_start: '2026-03-01', label: 'Mar 2026' };
const JANUARY = { period_start: '2026-01-01', label: 'Jan 2026' };

function dashboard(overrides: Partial<CrDashboard> = {}): CrDashboard {
  return {
    program: {
      id: 4,
      name: 'Pain reassessment',
      grain: 'month',
      status: 'active',
      units: ['Ward A', 'Ward B'],
      target: 0.9,
    },
    period: MARCH,
    periods: [MARCH, JANUARY],
    privilege_label: 'Privileged and confidential: quality improvement work product.',
    partial_enabled: false,
    kpis: { sampled: 7, assigned: 6, submitted: 4, overdue: 1, awaiting_adjudication: 1, counted: 3 },
    compliance: { rate: 9 / 11, n: 11, interval: { low: 0.523, high: 0.9486 } },
    meets_target: false,
    all_or_none: { rate: 2 / 3, n: 3, interval: { low: 0.2077, high: 0.9385 } },
    mean_score: { mean: 0.7833, n: 3 },
    questions: [
      {
        key: 'pain_score',
        text: 'Is a pain score recorded?',
        critical: true,
        rate: 1,
        n: 3,
        interval: { low: 0.4385, high: 1 },
        below_target: false,
      },
      {
        key: 'care_plan',
        text: 'Is there a care plan?',
        critical: false,
        rate: 2 / 3,
        n: 3,
        interval: { low: 0.2077, high: 0.9385 },
        below_target: true,
      },
    ],
    units: ['Ward A', 'Ward B'],
    heat_map: [
      {
        key: 'pain_score',
        text: 'Is a pain score recorded?',
        cells: [
          { unit: 'Ward A', rate: 1, n: 2 },
          { unit: 'Ward B', rate: 1, n: 1 },
        ],
      },
      {
        key: 'care_plan',
        text: 'Is there a care plan?',
        cells: [
          { unit: 'Ward A', rate: 1, n: 2 },
          { unit: 'Ward B', rate: 0, n: 1 },
        ],
      },
    ],
    trend: {
      chart: 'p',
      rule_profile: 'anhoej',
      grain: 'month',
      points: [],
      summary: {
        variation: null,
        assurance: null,
        trial: true,
        baseline_points: 0,
        useful_points: 0,
        longest_run: null,
        crossings: null,
        run_limit: null,
        crossing_limit: null,
      },
    },
    reliability: {
      pairs: 2,
      items: 8,
      agreement: 0.875,
      kappa: 0.75,
      pabak: 0.8125,
      meets_thresholds: false,
      flagged: ['pain_score'],
      thresholds: { kappa_min: 0.75, agreement_min: 0.95 },
    },
    findings: { open: 1, action_plan: 1, closed: 2 },
    abilities: { findings: true, irr: true },
    ...overrides,
  };
}

const card = (label: string) => labelled(label).textContent;

describe('DashboardProgramPage', () => {
  it("shows the period's progress, rates with n and interval, questions, heat map, reliability and findings", async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/programs/4/dashboard`]: jsonResponse(dashboard()) });
    await open();
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Pain reassessment'));
    expect(text()).toContain('Privileged and confidential: quality improvement work product.');
    expect(field('Period').value).toBe('Mar 2026');
    expect(card('Cases sampled')).toBe('Cases sampled7');
    expect(card('Submitted')).toBe('Submitted43 counted in the rates');
    expect(card('Overdue')).toContain('1');
    expect(card('Waiting for adjudication')).toContain('1');
    expect(card('Overall compliance')).toBe('Overall compliance81.8%n = 1195% CI 52.3%–94.9%Below target 90%');
    expect(card('All-or-none')).toContain('66.7%n = 3');
    expect(card('Mean case score')).toContain('78.3%n = 3');
    expect(rows('table[aria-label="Compliance by question"]')).toEqual([
      ['Is a pain score recorded?Critical', '100%', '3', '43.9%–100%', 'Meets target'],
      ['Is there a care plan?', '66.7%', '3', '20.8%–93.9%', 'Below target'],
    ]);
    expect(rows('table[aria-label="Compliance by question and unit"]')[1]).toEqual([
      'Is there a care plan?',
      '100%n = 2, fewer than 5 cases',
      '0%n = 1, fewer than 5 cases',
    ]);
    await waitFor(() => expect(text()).toContain('No periods sampled yet'));
    expect(text()).toContain('Agreement87.5%');
    expect(text()).toContain('1 question flagged (kappa below 0.70): Is a pain score recorded?');
    // Questions by their words only: a key is for the tool's editor.
    expect(text()).not.toMatch(/pain_score|care_plan/);
    expect(getControl('Open reliability and adjudication').getAttribute('href')).toBe(
      '/app/chart-review/12/irr?program=4',
    );
    expect(getControl('Open findings and action plans').getAttribute('href')).toBe(
      '/app/chart-review/12/findings?program=4',
    );
    expect(card('With an action plan')).toContain('1');
    expect(getControl('Export CSV').getAttribute('href')).toBe(
      `${API}/programs/4/export.csv?from=2026-03-01&to=2026-03-01`,
    );
  });

  it('picks another period through the URL, and exports the range chosen', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs/4/dashboard`]: (request) =>
        jsonResponse(request.query.get('period') === '2026-01-01' ? dashboard({ period: JANUARY }) : dashboard()),
    });
    const router = await open();
    await waitFor(() => expect(field('Period').value).toBe('Mar 2026'));
    await pick('Period', 'Jan 2026');
    await waitFor(() => expect(router.state.location.search).toBe('?period=2026-01-01'));
    await waitFor(() => expect(field('Period').value).toBe('Jan 2026'));
    expect(api.calls(`GET ${API}/programs/4/dashboard`).map((call) => call.query.get('period'))).toContain(
      '2026-01-01',
    );

    await pick('Export to', 'Mar 2026');
    expect(getControl('Export CSV').getAttribute('href')).toBe(
      `${API}/programs/4/export.csv?from=2026-01-01&to=2026-03-01`,
    );
    await pick('Export from', 'Mar 2026');
    await pick('Export to', 'Jan 2026');
    await waitFor(() => expect(text()).toContain('The end of the range is on or after its start.'));
    expect(getControl('Export CSV').hasAttribute('href')).toBe(false);
    expect((getControl('Export CSV') as HTMLButtonElement).disabled).toBe(true);
  });

  it('says so when the period has no submitted review yet', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs/4/dashboard`]: jsonResponse(
        dashboard({ period: JANUARY, kpis: { ...dashboard().kpis, counted: 0 } }),
      ),
    });
    await open('?period=2026-01-01');
    await waitFor(() => expect(text()).toContain('No reviews submitted yet for this period.'));
    expect(document.querySelector('table[aria-label="Compliance by question"]')).toBeNull();
    expect(card('Cases sampled')).toBe('Cases sampled7');
  });

  it('says so when the programme has no sample yet, without a period picker or export', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs/4/dashboard`]: jsonResponse(dashboard({ period: null, periods: [] })),
    });
    await open();
    await waitFor(() => expect(text()).toContain('No sample yet.'));
    expect(() => field('Period')).toThrow();
    expect(() => getControl('Export CSV')).toThrow();
  });

  it("shows the server's reason when the figures cannot be loaded, and tries again", async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs/4/dashboard`]: [
        jsonResponse({ message: 'This programme has no sample for this period.', code: 'VALIDATION_FAILED' }, 400),
        jsonResponse(dashboard()),
      ],
    });
    await open('?period=2026-02-01');
    await waitFor(() => expect(text()).toContain('This programme has no sample for this period.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Pain reassessment'));
  });
});
