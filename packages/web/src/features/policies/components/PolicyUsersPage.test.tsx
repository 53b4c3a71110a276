import type { PolicyPerson } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { API, BASE, dialog, input, openPolicyScreen, policyPerson, sessionRoutes, toasts } from './admin-test-helpers';
import { PolicyUsersPage } from './PolicyUsersPage';

const ANN = policyPerson({ id: 21, name: 'Ann Lee', main_role: 'policy_admin' });
const BOB = policyPerson({ id: 22, name: 'Bob Stone', main_role: null });
const CARA = policyPerson({ id: 23, name: 'Cara Diaz', policy_user: false });
const DAN = policyPerson({ id: 24, name: 'Dan Ford', policy_user: false });
const EVE = policyPerson({ id: 25, name: 'Eve Park', policy_user: false });

/** A tiny server keeping the policy users and the other members. */
function server(
  routes: Record<string, StubHandler | StubHandler[]> = {},
  start = { assigned: [ANN, BOB], others: [CARA, DAN, EVE] },
) {
  let assigned: PolicyPerson[] = start.assigned;
  let others: PolicyPerson[] = start.others;
  const everyone = [...assigned, ...others];
  const setAssigned = (ids: number[]) => {
    assigned = everyone
      .filter((person) => ids.includes(person.id))
      .map((person) => ({
        ...person,
        policy_user: true,
        main_role: assigned.some((a) => a.id === person.id) ? person.main_role : null,
      }));
    others = everyone
      .filter((person) => !ids.includes(person.id))
      .map((person) => ({ ...person, policy_user: false, main_role: null }));
    return jsonResponse({ users: assigned });
  };
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/eligible-users/assigned`]: () => jsonResponse({ users: assigned }),
    [`GET ${API}/eligible-users/unassigned`]: () => jsonResponse({ users: others }),
    [`POST ${API}/policy-users/assign`]: (request: StubRequest) => {
      const ids = (request.body as { user_ids: number[] }).user_ids;
      return setAssigned([...assigned.map((person) => person.id), ...ids]);
    },
    [`POST ${API}/policy-users/update`]: (request: StubRequest) =>
      setAssigned((request.body as { user_ids: number[] }).user_ids),
    ...routes,
  });
}

const open = (path = `${BASE}/policy-users`) =>
  openPolicyScreen(path, ['policy-users', 'assign-users', 'manage-users'], <PolicyUsersPage />);

function policyUserRows(): string[][] {
  return [...document.querySelectorAll('tr[data-policy-user-id]')].map((tr) =>
    [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent ?? ''),
  );
}

function memberNames(): string[] {
  return [...document.querySelectorAll('tr[data-member-id]')].map(
    (tr) => tr.querySelectorAll('td')[1]?.textContent ?? '',
  );
}

function removeButton(name: string): HTMLElement {
  const button = document.querySelector<HTMLElement>(`button[aria-label="Remove ${name}"]`);
  if (!button) throw new Error(`no Remove button for ${name}`);
  return button;
}

describe('PolicyUsersPage', () => {
  it('shows placeholders while the lists load', async () => {
    server({
      [`GET ${API}/eligible-users/assigned`]: () => new Promise<Response>(() => {}),
      [`GET ${API}/eligible-users/unassigned`]: () => new Promise<Response>(() => {}),
    });
    await open();
    expect(document.querySelector('h1')!.textContent).toBe('Policy users');
    expect(document.querySelector('[role="status"][aria-label="Loading the policy users"]')).not.toBeNull();
    expect(document.querySelector('[role="status"][aria-label="Loading the project members"]')).not.toBeNull();
  });

  it('lists the policy users and the other members, with the new-user link', async () => {
    server();
    await open(`${BASE}/manage-users`);
    await waitFor(() => expect(policyUserRows()).toHaveLength(2));
    expect(policyUserRows()).toEqual([
      ['Ann Lee', 'ann.lee', 'ann.lee@north.example', 'Policy admin'],
      ['Bob Stone', 'bob.stone', 'bob.stone@north.example', 'No role yet'],
    ]);
    await waitFor(() => expect(memberNames()).toEqual(['Cara Diaz', 'Dan Ford', 'Eve Park']));
    const link = getControl('A person is not a member of the project yet? Ask for a new user');
    expect(link.getAttribute('href')).toBe('/app/admin/12/new-user-request');
  });

  it('links to the new-user request of policy management when the role may use it', async () => {
    server({
      'GET /api/me/permissions': jsonResponse({ permissions: { 'policy_management:create-project-user': true } }),
    });
    await open();
    await waitFor(() => getControl('Someone is missing? Request a new user'));
    expect(getControl('Someone is missing? Request a new user').getAttribute('href')).toBe(
      `${BASE}/create-project-user`,
    );
    expect(() => getControl('A person is not a member of the project yet? Ask for a new user')).toThrow();
  });

  it('says when nobody takes part and when everyone does', async () => {
    server({}, { assigned: [], others: [] });
    await open(`${BASE}/assign-users`);
    await waitFor(() => expect(text()).toContain('Nobody takes part in policy management yet.'));
    await waitFor(() => expect(text()).toContain('Every member of the project takes part in policy management.'));
    expect(() => getControl('Add to policy management')).toThrow();
  });

  it('adds the chosen members and points to the main roles', async () => {
    const api = server();
    await open();
    await waitFor(() => expect(memberNames()).toHaveLength(3));
    const add = getControl('Add to policy management');
    expect(add.hasAttribute('disabled')).toBe(true);

    await click(input('Choose everyone'));
    expect(input('Choose Dan Ford').checked).toBe(true);
    await click(input('Choose Dan Ford'));
    expect(input('Choose everyone').checked).toBe(false);
    expect(input('Choose everyone').getAttribute('data-indeterminate')).toBe('true');
    expect(text()).toContain('2 people chosen.');

    await click(add);
    await waitFor(() => expect(toasts()).toContain('Added 2 people.'));
    expect(api.calls(`POST ${API}/policy-users/assign`).map((call) => call.body)).toEqual([{ user_ids: [23, 25] }]);
    await waitFor(() => expect(memberNames()).toEqual(['Dan Ford']));
    expect(policyUserRows().map((cells) => cells[0])).toEqual(['Ann Lee', 'Bob Stone', 'Cara Diaz', 'Eve Park']);
    expect(text()).toContain('3 policy users have no main role yet');
    expect(getControl('Assign main roles').getAttribute('href')).toBe(`${BASE}/assign-main-role`);
    expect(input('Choose Dan Ford').checked).toBe(false);
  });

  it('asks before removing someone and sends the list without them', async () => {
    const api = server();
    await open();
    await waitFor(() => removeButton('Bob Stone'));

    await click(removeButton('Bob Stone'));
    await waitFor(() =>
      expect(text(dialog())).toContain(
        'Remove Bob Stone from policy management? They lose their policy role and see the policies no more.',
      ),
    );
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`POST ${API}/policy-users/update`)).toHaveLength(0);

    await click(removeButton('Bob Stone'));
    await waitFor(() => dialog());
    await click(getControl('Remove', dialog()));
    await waitFor(() => expect(toasts()).toContain('Removed Bob Stone.'));
    expect(api.calls(`POST ${API}/policy-users/update`).map((call) => call.body)).toEqual([{ user_ids: [21] }]);
    await waitFor(() => expect(policyUserRows().map((cells) => cells[0])).toEqual(['Ann Lee']));
    await waitFor(() => expect(memberNames()).toEqual(['Bob Stone', 'Cara Diaz', 'Dan Ford', 'Eve Park']));
  });

  it('shows why the server refuses a removal', async () => {
    const api = server({
      [`POST ${API}/policy-users/update`]: jsonResponse(
        { message: 'You cannot remove yourself from policy management.' },
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
        'You cannot remove yourself from policy management.',
      ),
    );
    expect(api.calls(`POST ${API}/policy-users/update`)[0]!.body).toEqual({ user_ids: [22] });
    expect(policyUserRows()).toHaveLength(2);
    expect(toasts()).not.toContain('Removed Ann Lee.');
  });

  it('shows the server message when the policy users cannot be loaded, and tries again', async () => {
    server({
      [`GET ${API}/eligible-users/assigned`]: [
        jsonResponse({ message: 'Your role may not manage policy users.' }, 403),
        jsonResponse({ users: [ANN] }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Your role may not manage policy users.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(policyUserRows()).toHaveLength(1));
  });
});
