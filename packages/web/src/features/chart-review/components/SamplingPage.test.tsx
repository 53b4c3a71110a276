import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { getControl, text, waitFor } from '../../../test/render';
import { API, BASE, openScreen, programBody, rows, sessionRoutes } from './cr-test-fixtures';
import { SamplingPage } from './SamplingPage';

const open = () => openScreen(`${BASE}/sampling`, ['sampling'], <SamplingPage />);
const table = 'table[aria-label="Programmes to sample"]';
const summary = (id: number, period: string, status: 'uploaded' | 'drawn' | 'locked') => ({
  id,
  program_id: 1,
  period_start: period,
  status,
  file_name: 'list.csv',
  row_count: 10,
  size: null,
  counts: { eligible: 10, selected: 0, excluded: 0, assigned: 0, submitted: 0 },
  uploaded_at: '2026-04-01T10:00:00Z',
  drawn_at: null,
  locked_at: null,
});

describe('SamplingPage', () => {
  it('lists the active programmes with the period and state of their latest sample', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs`]: jsonResponse({
        abilities: { create: true },
        programs: [
          programBody({ id: 1, name: 'Falls audit' }),
          programBody({ id: 2, name: 'Pain audit', grain: 'quarter', sampling: { method: 'all' } }),
          programBody({ id: 3, name: 'Old audit', status: 'closed' }),
        ],
      }),
      [`GET ${API}/programs/1/samples`]: jsonResponse({
        samples: [summary(9, '2026-03-01', 'locked'), summary(8, '2026-02-01', 'locked')],
        abilities: { upload: true },
      }),
      [`GET ${API}/programs/2/samples`]: jsonResponse({ samples: [], abilities: { upload: true } }),
    });
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(2));
    await waitFor(() => expect(text()).toContain('No list uploaded yet'));
    expect(rows(table)).toEqual([
      ['Falls audit', 'Monthly', 'Joint Commission table', 'Mar 2026 · Locked and assigned'],
      ['Pain audit', 'Quarterly', 'All cases', 'No list uploaded yet'],
    ]);
    expect(getControl('Falls audit').getAttribute('href')).toBe(`${BASE}/sampling/1`);
    expect(text()).not.toContain('Old audit');
    expect(document.title).toContain('Sampling');
  });

  it('says when there is no active programme', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs`]: jsonResponse({ abilities: { create: true }, programs: [] }),
    });
    await open();
    await waitFor(() => expect(text()).toContain('No active programme.'));
  });
});
