import type { MonitoringPerson } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { MonitoringUsersPage } from './MonitoringUsersPage';
import {
  API,
  BASE,
  dialog,
  input,
  openScreen,
  person,
  sessionRoutes,
  toasts,
  violations,
} from './people-test-fixtures';

const ANN = person({ id: 21, name: 'Ann Lee', main_role: 'monitoring_admin' });
const BOB = person({ id: 22, name: 'Bob Stone', main_role: null });
const CARA = person({ id: 23, name: 'Cara Diaz', monitoring_user: false });
const DAN = person({ id: 24, name: 'Dan Ford', monitoring_user: false });

/** A tiny server keeping the monitoring users and the other members. */
function server(
  routes: Record<string, StubHandler | StubHandler[]> = {},
  start = { assigned: [ANN, BOB], others: [CARA, DAN] },
) {
  let assigned: MonitoringPerson[] = start.assigned;
  let others: MonitoringPerson[] = start.others;
  const everyone = [...assigned, ...others];
  const setAssigned = (ids: number[]) => {
    const before = assigned;
    assigned = everyone
      .filter((p) => ids.includes(p.id))
      .map((p) => ({ ...p, monitoring_user: true, main_role: before.some((a) => a.id === p.id) ? p.main_role : null }));
    others = everyone
      .filter((p) => !ids.includes(p.id))
      .map((p) => ({ ...p, monitoring_user: false, main_role: null }));
    return jsonResponse({ users: assigned });
  };
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/users`]: () => jsonResponse({ users: assigned }),
    [`GET ${API}/users/unassigned`]: () => jsonResponse({ users: others }),
    [`POST ${API}/users/assign`]: (request: StubRequest) =>
      setAssigned([...assigned.map((p) => p.id), ...(request.body as { user_ids: number[] }).user_ids]),
    [`POST ${API}/users/update`]: (request: StubRequest) =>
      setAssigned((request.body as { user_ids: number[] }).user_ids),
    ...routes,
  });
}

const open = (path = `${BASE}/manage-users`) =>
  openScreen(path, ['assign-users', 'manage-users'], <MonitoringUsersPage />);

const userRows = () =>
  [...document.querySelectorAll('tr[data-monitoring-user-id]')].map((tr) =>
    [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent ?? ''),
  );
const memberNames = () =>
  [...document.querySelectorAll('tr[data-member-id]')].map((tr) => tr.querySelectorAll('td')[1]?.textContent ?? '');
const removeButton = (name: string) => {
  const button = document.querySelector<HTMLElement>(`button[aria-label="Remove ${name}"]`);
  if (!button) throw new Error(`no Remove button for ${name}`);
  return button;
};

describe('MonitoringUsersPage', () => {
  it('lists the monitoring users with their main role and the other members', async () => {
    server();
    await open();
    expect(document.querySelector('h1')!.textContent).toBe('Monitoring users');
    await waitFor(() => expect(userRows()).toHaveLength(2));
    expect(userRows()).toEqual([
      ['Ann Lee', 'ann.lee', 'ann.lee@north.example', 'Monitoring admin'],
      ['Bob Stone', 'bob.stone', 'bob.stone@north.example', 'No role yet'],
    ]);
    await waitFor(() => expect(memberNames()).toEqual(['Cara Diaz', 'Dan Ford']));
    expect(await violations()).toEqual([]);
    expect(getControl('A person is not a member of the project yet? Ask for a new user').getAttribute('href')).toBe(
      '/app/admin/12/new-user-request',
    );
  });

  it('says when nobody takes part and when everyone does', async () => {
    server({}, { assigned: [], others: [] });
    await open(`${BASE}/assign-users`);
    await waitFor(() => expect(text()).toContain('Nobody takes part in monitoring yet.'));
    await waitFor(() => expect(text()).toContain('Every member of the project takes part in monitoring.'));
    expect(() => getControl('Add to monitoring')).toThrow();
  });

  it('filters both lists with the search box', async () => {
    server();
    await open();
    await waitFor(() => expect(memberNames()).toHaveLength(2));
    await typeInto(input('Search people'), 'dan');
    await waitFor(() => expect(memberNames()).toEqual(['Dan Ford']));
    expect(text()).toContain('Nobody matches the search.');
  });

  it('adds the chosen members and points to the main roles', async () => {
    const api = server();
    await open(`${BASE}/assign-users`);
    await waitFor(() => expect(memberNames()).toHaveLength(2));
    expect(getControl('Add to monitoring').hasAttribute('disabled')).toBe(true);
    await click(input('Choose Cara Diaz'));
    expect(text()).toContain('1 person chosen.');
    await click(getControl('Add to monitoring'));
    await waitFor(() => expect(toasts()).toContain('Added 1 person.'));
    expect(api.calls(`POST ${API}/users/assign`).map((call) => call.body)).toEqual([{ user_ids: [23] }]);
    await waitFor(() => expect(memberNames()).toEqual(['Dan Ford']));
    expect(userRows().map((cells) => cells[0])).toEqual(['Ann Lee', 'Bob Stone', 'Cara Diaz']);
    expect(text()).toContain('2 monitoring users have no main role yet');
    expect(getControl('Assign main roles').getAttribute('href')).toBe(`${BASE}/assign-main-role`);
  });

  it('asks before removing someone and sends the list without them', async () => {
    const api = server();
    await open();
    await waitFor(() => removeButton('Bob Stone'));
    await click(removeButton('Bob Stone'));
    await waitFor(() =>
      expect(text(dialog())).toContain(
        'Remove Bob Stone from monitoring? They lose their main role, their monitoring roles and the page permissions given to them.',
      ),
    );
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`POST ${API}/users/update`)).toHaveLength(0);

    await click(removeButton('Bob Stone'));
    await waitFor(() => dialog());
    await click(getControl('Remove', dialog()));
    await waitFor(() => expect(toasts()).toContain('Removed Bob Stone.'));
    expect(api.calls(`POST ${API}/users/update`).map((call) => call.body)).toEqual([{ user_ids: [21] }]);
    await waitFor(() => expect(userRows().map((cells) => cells[0])).toEqual(['Ann Lee']));
    await waitFor(() => expect(memberNames()).toEqual(['Bob Stone', 'Cara Diaz', 'Dan Ford']));
  });

  it('shows why the server refuses a removal', async () => {
    server({
      [`POST ${API}/users/update`]: jsonResponse(
        { message: 'You cannot remove yourself from monitoring; ask another monitoring administrator.' },
        409,
      ),
    });
    await open();
    await waitFor(() => removeButton('Ann Lee'));
    await click(removeButton('Ann Lee'));
    await waitFor(() => dialog());
    await click(getControl('Remove', dialog()));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe(
        'You cannot remove yourself from monitoring; ask another monitoring administrator.',
      ),
    );
    expect(userRows()).toHaveLength(2);
  });
});
