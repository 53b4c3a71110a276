import type { MainRoleDashboard } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { MainRoleDashboardPage } from './MainRoleDashboardPage';
import { API, BASE, openScreen, sessionRoutes, violations } from './people-test-fixtures';

const DASHBOARD: MainRoleDashboard = {
  roles: [
    {
      role: 'monitoring_admin',
      people: [
        {
          id: 21,
          name: 'Ann Lee',
          username: 'ann',
          work: [
            { kind: 'unassigned_requests', count: 2 },
            { kind: 'pages_without_owner', count: 0 },
          ],
        },
      ],
    },
    {
      role: 'page_owner',
      people: [
        {
          id: 22,
          name: 'Owen Owner',
          username: 'owen',
          work: [
            { kind: 'pages_without_insight', count: 3 },
            { kind: 'draft_pages', count: 1 },
          ],
        },
      ],
    },
    { role: 'data_entry', people: [] },
    {
      role: 'viewer',
      people: [{ id: 24, name: 'Vera Viewer', username: 'vera', work: [{ kind: 'own_open_requests', count: 1 }] }],
    },
  ],
  without_role: [{ id: 25, name: 'Nina New', username: 'nina' }],
};

const open = () => openScreen(`${BASE}/main-role-dashboard`, ['main-role-dashboard'], <MainRoleDashboardPage />);
const card = (role: string) => document.querySelector<HTMLElement>(`section[data-role="${role}"]`)!;

describe('MainRoleDashboardPage', () => {
  it('shows one card per main role with its people and their open work linked to where it is done', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/main-role-dashboard`]: jsonResponse(DASHBOARD) });
    await open();
    await waitFor(() => expect(card('page_owner')).not.toBeNull());
    expect([...document.querySelectorAll('section[data-role] h2')].map((h) => h.textContent)).toEqual([
      'Monitoring admin',
      'Page owner',
      'Data entry',
      'Viewer',
    ]);
    const owner = card('page_owner');
    expect(text(owner)).toContain('Owen Owner');
    const insight = getControl('3 owned pages without a published key insight', owner);
    expect(insight.getAttribute('href')).toBe(`${BASE}/pages`);
    expect(getControl('1 owned draft page', owner).getAttribute('href')).toBe(`${BASE}/pages`);
    const admin = card('monitoring_admin');
    expect(getControl('2 submitted data requests nobody is assigned to', admin).getAttribute('href')).toBe(
      `${BASE}/request-form`,
    );
    // Nothing waiting: plain text, no link.
    expect(text(admin)).toContain('0 pages without an owner');
    expect(() => getControl('0 pages without an owner', admin)).toThrow();
    expect(text(card('data_entry'))).toContain('Nobody has this role.');
    expect(getControl('1 open data request of their own', card('viewer')).getAttribute('href')).toBe(
      `${BASE}/request-form`,
    );
    const noRole = document.querySelector<HTMLElement>('section[aria-labelledby="no-role-heading"]')!;
    expect(text(noRole)).toContain('1 monitoring user cannot open the pages until they have a main role:');
    expect(text(noRole)).toContain('Nina New');
    expect(getControl('Assign main roles', noRole).getAttribute('href')).toBe(`${BASE}/assign-main-role`);
    expect(await violations()).toEqual([]);
  });

  it('shows the server message when the dashboard cannot be loaded, and tries again', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/main-role-dashboard`]: [
        jsonResponse({ message: 'Your role is not permitted to access this section.' }, 403),
        jsonResponse({ ...DASHBOARD, without_role: [] }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Your role is not permitted to access this section.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(text()).toContain('Every monitoring user has a main role.'));
  });
});
