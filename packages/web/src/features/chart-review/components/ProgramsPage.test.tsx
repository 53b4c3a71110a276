import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { getControl, text, waitFor } from '../../../test/render';
import { API, BASE, openScreen, programBody, rows, sessionRoutes } from './cr-test-fixtures';
import { ProgramsPage } from './ProgramsPage';

const open = () => openScreen(`${BASE}/programs`, ['programs'], <ProgramsPage />);
const table = 'table[aria-label="Programmes"]';

describe('ProgramsPage', () => {
  it('lists the programmes with their tool version, units, period, sample in words, target, owner and status', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs`]: jsonResponse({
        abilities: { create: true },
        programs: [
          programBody({ id: 1, name: 'Falls, medical wards', units: ['Ward 4', 'Ward 5'] }),
          programBody({
            id: 2,
            name: 'Pain, surgery',
            units: [],
            grain: 'quarter',
            sampling: { method: 'fixed', n: 30 },
            target: 0.975,
            pinned_version_id: 30,
            version_in_use: { id: 30, version: 1 },
            owner_id: 21,
            owner: { id: 21, name: 'Ada Lead' },
            status: 'paused',
          }),
          programBody({
            id: 3,
            name: 'Sepsis',
            sampling: { method: 'percent', pct: 20, min: 10, max: 50, stratify_by_unit: true },
            version_in_use: null,
            abilities: { edit: false },
          }),
          programBody({ id: 4, name: 'Consent', sampling: { method: 'all' }, status: 'closed' }),
        ],
      }),
    });
    await open();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    expect(rows(table)).toEqual([
      [
        'Falls, medical wards',
        'Falls audit · v2',
        'Ward 4, Ward 5',
        'Monthly',
        'Joint Commission table',
        '90%',
        'No owner',
        'Active',
      ],
      [
        'Pain, surgery',
        'Falls audit · v1 (pinned)',
        'All units',
        'Quarterly',
        'Fixed 30 per quarter',
        '97.5%',
        'Ada Lead',
        'Paused',
      ],
      [
        'Sepsis',
        'Falls audit · nothing published yet',
        'Ward 4',
        'Monthly',
        '20% (min 10, max 50), each unit separately',
        '90%',
        'No owner',
        'Active',
      ],
      ['Consent', 'Falls audit · v2', 'Ward 4', 'Monthly', 'All cases', '90%', 'No owner', 'Closed'],
    ]);
    expect(getControl('Falls, medical wards').getAttribute('href')).toBe(`${BASE}/programs/1/edit`);
    // Without the edit ability the name is not a link.
    expect(() => getControl('Sepsis')).toThrow();
    expect(getControl('New programme').getAttribute('href')).toBe(`${BASE}/programs/new`);
    expect(document.title).toContain('Programmes');
  });

  it('explains what a programme is when there is none', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs`]: jsonResponse({ abilities: { create: true }, programs: [] }),
    });
    await open();
    await waitFor(() => expect(text()).toContain('No programmes yet.'));
    expect(text()).toContain('A programme is a recurring audit');
    expect(getControl('New programme')).toBeDefined();
  });

  it('offers no "New programme" without the ability to create one', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/programs`]: jsonResponse({ abilities: { create: false }, programs: [] }),
    });
    await open();
    await waitFor(() => expect(text()).toContain('No programmes yet.'));
    expect(() => getControl('New programme')).toThrow();
  });
});
