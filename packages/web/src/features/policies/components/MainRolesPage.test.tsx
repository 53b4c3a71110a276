import type { PolicyPerson } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import {
  API,
  BASE,
  fieldError,
  input,
  openPolicyScreen,
  pick,
  policyPerson,
  sessionRoutes,
  toasts,
} from './admin-test-helpers';
import { MainRolesPage } from './MainRolesPage';

const ANN = policyPerson({ id: 21, name: 'Ann Lee', main_role: 'policy_admin' });
const BOB = policyPerson({ id: 22, name: 'Bob Stone', main_role: 'author' });
const CARA = policyPerson({ id: 23, name: 'Cara Diaz' });
const DAN = policyPerson({ id: 24, name: 'Dan Ford' });
const EVE = policyPerson({ id: 25, name: 'Eve Park' });

/** A tiny server keeping the policy users and their main roles. */
function server(
  routes: Record<string, StubHandler | StubHandler[]> = {},
  start: PolicyPerson[] = [ANN, BOB, CARA, DAN, EVE],
) {
  let people = start;
  return stubApi({
    ...sessionRoutes(),
    [`GET ${API}/pol-man-users/unassigned-main-role`]: () =>
      jsonResponse({ users: people.filter((person) => person.main_role === null) }),
    [`GET ${API}/pol-man-users/assigned-main-role`]: () =>
      jsonResponse({ users: people.filter((person) => person.main_role !== null) }),
    [`POST ${API}/pol-man-users/main-role/bulk`]: (request: StubRequest) => {
      const { items } = request.body as { items: { user_id: number; main_role: string | null }[] };
      people = people.map((person) => {
        const item = items.find((entry) => entry.user_id === person.id);
        return item ? { ...person, main_role: item.main_role } : person;
      });
      return jsonResponse({ users: people.filter((person) => person.main_role !== null) });
    },
    ...routes,
  });
}

const open = (path: string, mode?: 'assign' | 'edit') =>
  openPolicyScreen(path, ['assign-main-role', 'edit-main-role'], <MainRolesPage mode={mode} />);

function rows(): { name: string; role: string; changed: boolean }[] {
  return [...document.querySelectorAll<HTMLElement>('tr[data-user-id]')].map((tr) => ({
    name: tr.querySelector('td')?.textContent ?? '',
    role: tr.querySelector<HTMLInputElement>('input[aria-label^="Main role of"]')?.value ?? '',
    changed: tr.hasAttribute('data-changed'),
  }));
}

describe('MainRolesPage', () => {
  it('shows placeholders while the list loads', async () => {
    server({ [`GET ${API}/pol-man-users/unassigned-main-role`]: () => new Promise<Response>(() => {}) });
    await open(`${BASE}/assign-main-role`);
    expect(document.querySelector('h1')!.textContent).toBe('Assign main roles');
    expect(document.querySelector('[role="status"][aria-label="Loading the policy users"]')).not.toBeNull();
  });

  it('says when everyone has a role (assign) and when nobody has one (edit)', async () => {
    server({}, [ANN]);
    await open(`${BASE}/assign-main-role`);
    await waitFor(() => expect(text()).toContain('Every policy user has a main role.'));
    expect(text()).not.toContain('Save');

    document.body.innerHTML = '';
    server({}, [CARA]);
    await open(`${BASE}/edit-main-role`);
    expect(document.querySelector('h1')!.textContent).toBe('Main roles');
    await waitFor(() => expect(text()).toContain('Nobody has a main role yet.'));
  });

  it('tells what each role may do', async () => {
    server();
    await open(`${BASE}/edit-main-role`);
    const guide = document.querySelector('[data-testid="role-guide"]')!.textContent;
    expect(guide).toContain('Policy admin: Everything, including numbering, departments, people and import.');
    expect(guide).toContain('Author: Writes drafts and new versions.');
    expect(guide).toContain('Reviewer: Reviews the drafts of their departments.');
    expect(guide).toContain('Signer: Signs policies.');
    expect(guide).toContain('Reader: Reads and acknowledges published policies.');
  });

  it('assigns roles to the people without one, sending only the changed rows', async () => {
    const api = server();
    await open(`${BASE}/assign-main-role`);
    await waitFor(() => expect(rows().map((row) => row.name)).toEqual(['Cara Diaz', 'Dan Ford', 'Eve Park']));
    expect(getControl('Save 0 changes').hasAttribute('disabled')).toBe(true);

    await pick('Main role of Cara Diaz', 'Author');
    await pick('Main role of Eve Park', 'Reader');
    expect(rows()).toEqual([
      { name: 'Cara Diaz', role: 'Author', changed: true },
      { name: 'Dan Ford', role: '', changed: false },
      { name: 'Eve Park', role: 'Reader', changed: true },
    ]);
    await click(getControl('Save 2 changes'));
    await waitFor(() => expect(toasts()).toContain('Saved 2 changes.'));
    expect(api.calls(`POST ${API}/pol-man-users/main-role/bulk`).map((call) => call.body)).toEqual([
      {
        items: [
          { user_id: 23, main_role: 'author' },
          { user_id: 25, main_role: 'reader' },
        ],
      },
    ]);
    await waitFor(() => expect(rows()).toEqual([{ name: 'Dan Ford', role: '', changed: false }]));
    expect(getControl('Save 0 changes').hasAttribute('disabled')).toBe(true);
  });

  it('edits roles: a row changed back is not sent, "No role" sends null', async () => {
    const api = server();
    await open(`${BASE}/edit-main-role`);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()).toEqual([
      { name: 'Ann Lee', role: 'Policy admin', changed: false },
      { name: 'Bob Stone', role: 'Author', changed: false },
    ]);

    await pick('Main role of Ann Lee', 'Signer');
    await pick('Main role of Bob Stone', 'No role');
    expect(getControl('Save 2 changes')).toBeDefined();
    await pick('Main role of Ann Lee', 'Policy admin');
    expect(rows().map((row) => row.changed)).toEqual([false, true]);

    await click(getControl('Save 1 change'));
    await waitFor(() => expect(toasts()).toContain('Saved 1 change.'));
    expect(api.calls(`POST ${API}/pol-man-users/main-role/bulk`).map((call) => call.body)).toEqual([
      { items: [{ user_id: 22, main_role: null }] },
    ]);
    await waitFor(() => expect(rows().map((row) => row.name)).toEqual(['Ann Lee']));
  });

  it('shows the errors of the server beside their rows and keeps the changes', async () => {
    const api = server({
      [`POST ${API}/pol-man-users/main-role/bulk`]: jsonResponse(
        {
          message: 'Some roles could not be saved.',
          errors: { 'items.1': ['Eve Park is no longer a policy user.'] },
        },
        400,
      ),
    });
    await open(`${BASE}/assign-main-role`);
    await waitFor(() => expect(rows()).toHaveLength(3));
    await pick('Main role of Cara Diaz', 'Signer');
    await pick('Main role of Eve Park', 'Reviewer');
    await click(getControl('Save 2 changes'));
    await waitFor(() => expect(fieldError('Main role of Eve Park')).toBe('Eve Park is no longer a policy user.'));
    expect(fieldError('Main role of Cara Diaz')).toBeNull();
    expect(document.querySelector('[role="alert"]')?.textContent).toContain('Some roles could not be saved.');
    expect(api.calls(`POST ${API}/pol-man-users/main-role/bulk`)).toHaveLength(1);
    expect(rows().map((row) => row.changed)).toEqual([true, false, true]);
    expect(getControl('Save 2 changes')).toBeDefined();

    // Choosing another role for the row clears its error.
    await pick('Main role of Eve Park', 'Reader');
    expect(fieldError('Main role of Eve Park')).toBeNull();
  });

  it('shows the message of a refusal (409) and saves nothing', async () => {
    server({
      [`POST ${API}/pol-man-users/main-role/bulk`]: jsonResponse(
        { message: 'You cannot change your own main role.' },
        409,
      ),
    });
    await open(`${BASE}/edit-main-role`);
    await waitFor(() => expect(rows()).toHaveLength(2));
    await pick('Main role of Ann Lee', 'Reader');
    await click(getControl('Save 1 change'));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe('You cannot change your own main role.'),
    );
    expect(input('Main role of Ann Lee').value).toBe('Reader');
    expect(rows().map((row) => row.changed)).toEqual([true, false]);
    expect(getControl('Save 1 change')).toBeDefined();
  });

  it('follows the mode prop over the path', async () => {
    server();
    await open(`${BASE}/edit-main-role`, 'assign');
    expect(document.querySelector('h1')!.textContent).toBe('Assign main roles');
    await waitFor(() => expect(rows().map((row) => row.name)).toEqual(['Cara Diaz', 'Dan Ford', 'Eve Park']));
  });
});
