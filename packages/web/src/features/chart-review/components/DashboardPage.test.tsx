import type { CrDashboardProgram } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, openScreen, rows, sessionRoutes } from './cr-test-fixtures';
import { DashboardPage } from './DashboardPage';

const open = () => openScreen(`${BASE}/dashboard`, ['dashboard'], <DashboardPage />);
const table = 'table[aria-label="Programmes at a glance"]';

const empty = { rate: null, n: 0, interval: null };
function program(overrides: Partial<CrDashboardProgram> & Pick<CrDashboardProgram, 'id' | 'name'>): CrDashboardProgram {
  return {
    status: 'active',
    grain: 'month',
    target: 0.9,
    period: null,
    compliance: empty,
    meets_target: null,
    all_or_none: empty,
    sampled: 0,
    submitted: 0,
    overdue: 0,
    open_findings: 0,
    ...overrides,
  };
}

describe('DashboardPage', () => {
  it("lists every programme's latest period with n beside each rate, and links to its dashboard", async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/dashboard`]: jsonResponse({
        programs: [
          program({
            id: 4,
            name: 'Pain reassessment',
            period: { period_start: '2026-03-01', label: 'Mar 2026' },
            compliance: { rate: 9 / 11, n: 11, interval: { low: 0.523, high: 0.9486 } },
            meets_target: false,
            all_or_none: { rate: 2 / 3, n: 3, interval: { low: 0.2077, high: 0.9385 } },
            sampled: 7,
            submitted: 4,
            overdue: 1,
            open_findings: 2,
          }),
          program({ id: 5, name: 'Sepsis bundle', status: 'paused' }),
        ],
      }),
    });
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(2));
    expect(rows(table)).toEqual([
      [
        'Pain reassessment',
        'Mar 2026',
        '81.8%n = 11 · 95% CI 52.3%–94.9%',
        '66.7%n = 3 · 95% CI 20.8%–93.9%',
        'Below target 90%',
        '4 / 7',
        '1',
        '2',
      ],
      ['Sepsis bundlePaused', 'No sample yet', '—n = 0', '—n = 0', 'Target 90%: no rate yet', '0 / 0', '0', '0'],
    ]);
    await click(getControl('Pain reassessment'));
    await waitFor(() => expect(text()).toContain(`At ${BASE}/dashboard/4`));
  });

  it('says so when there is no programme yet', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/dashboard`]: jsonResponse({ programs: [] }) });
    await open();
    await waitFor(() => expect(text()).toContain('No programmes yet.'));
  });

  it('shows a load failure with a way to try again', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/dashboard`]: [
        jsonResponse({ message: 'The server is busy.' }, 503),
        jsonResponse({ programs: [program({ id: 4, name: 'Pain reassessment' })] }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('The server is busy.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(rows(table)).toHaveLength(1));
    expect(api.calls(`GET ${API}/dashboard`).length).toBeGreaterThanOrEqual(2);
  });
});
