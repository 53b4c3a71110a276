import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { MonitoringMainRolesPage } from './MonitoringMainRolesPage';
import { API, BASE, openScreen, person, pick, sessionRoutes, toasts, violations } from './people-test-fixtures';

const ANN = person({ id: 21, name: 'Ann Lee', main_role: 'monitoring_admin' });
const BOB = person({ id: 22, name: 'Bob Stone', main_role: null });
const CARA = person({ id: 23, name: 'Cara Diaz', main_role: 'viewer' });
const DAN = person({ id: 24, name: 'Dan Ford', main_role: null });

const open = () => openScreen(`${BASE}/assign-main-role`, ['assign-main-role'], <MonitoringMainRolesPage />);
const rowsIn = (heading: string) => {
  const section = document.querySelector(`section[aria-labelledby="${heading}"]`);
  return [...(section?.querySelectorAll('tr[data-user-id]') ?? [])].map((tr) => tr.querySelector('td')?.textContent);
};

describe('MonitoringMainRolesPage', () => {
  it('lists the users without and with a main role and explains each role', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/users`]: jsonResponse({ users: [ANN, BOB, CARA, DAN] }) });
    await open();
    await waitFor(() => expect(rowsIn('without-role-heading')).toEqual(['Bob Stone', 'Dan Ford']));
    expect(rowsIn('with-role-heading')).toEqual(['Ann Lee', 'Cara Diaz']);
    expect(await violations()).toEqual([]);
    const guide = document.querySelector('[data-testid="role-guide"]')!.textContent;
    expect(guide).toContain('Monitoring admin: Everything, including the page tree, levels, users and permissions.');
    expect(guide).toContain('Page owner: Edits the pages they own and writes key insights.');
    expect(guide).toContain('Data entry: Imports data and answers data requests.');
    expect(guide).toContain('Viewer: Reads pages and asks for data.');
  });

  it('saves every change in one bulk call and counts them on the button', async () => {
    const api = stubApi({
      ...sessionRoutes(),
      [`GET ${API}/users`]: jsonResponse({ users: [ANN, BOB, CARA, DAN] }),
      [`POST ${API}/users/main-role/bulk`]: jsonResponse({ users: [ANN, BOB, CARA, DAN] }),
    });
    await open();
    await waitFor(() => getControl('Save 0 changes'));
    expect(getControl('Save 0 changes').hasAttribute('disabled')).toBe(true);
    await pick('Main role of Bob Stone', 'Page owner');
    await pick('Main role of Dan Ford', 'Data entry');
    await pick('Main role of Cara Diaz', 'No role');
    await click(getControl('Save 3 changes'));
    await waitFor(() => expect(toasts()).toContain('Saved 3 changes.'));
    expect(api.calls(`POST ${API}/users/main-role/bulk`).map((call) => call.body)).toEqual([
      {
        items: [
          { user_id: 22, main_role: 'page_owner' },
          { user_id: 23, main_role: null },
          { user_id: 24, main_role: 'data_entry' },
        ],
      },
    ]);
  });

  it('marks the rows the server refuses and saves nothing', async () => {
    stubApi({
      ...sessionRoutes(),
      [`GET ${API}/users`]: jsonResponse({ users: [ANN, BOB] }),
      [`POST ${API}/users/main-role/bulk`]: jsonResponse(
        {
          message: 'You cannot change your own role; ask another monitoring administrator.',
          errors: { 'items.0': ['You cannot change your own role; ask another monitoring administrator.'] },
        },
        400,
      ),
    });
    await open();
    await waitFor(() => getControl('Save 0 changes'));
    await pick('Main role of Ann Lee', 'Viewer');
    await click(getControl('Save 1 change'));
    await waitFor(() => expect(text()).toContain('Nothing was saved; see the marked rows.'));
    const row = document.querySelector('tr[data-user-id="21"]')!;
    expect(row.textContent).toContain('You cannot change your own role');
  });

  it('says when nobody takes part in monitoring', async () => {
    stubApi({ ...sessionRoutes(), [`GET ${API}/users`]: jsonResponse({ users: [] }) });
    await open();
    await waitFor(() => expect(text()).toContain('Nobody takes part in monitoring yet.'));
    expect(getControl('Add people to monitoring').getAttribute('href')).toBe(`${BASE}/assign-users`);
  });
});
