import type { AppPerson } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { PEOPLE_API } from '../../../lib/people';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, typeInto, waitFor } from '../../../test/render';
import { dialog, field, seriousViolations, toasts } from '../../../test/ui';
import { APPS, api, base, listCall, openScreen, person, sessionRoutes } from './people-test-fixtures';
import { NO_MATCH, UsersPage } from './UsersPage';

/** The texts of each app's screen, as they read (SPEC section 2; e2e/policies.spec.ts reads some of them). */
const TEXTS = {
  policy_management: {
    paths: ['policy-users', 'assign-users', 'manage-users'],
    title: 'Policy users',
    loading: 'Loading the policy users',
    intro:
      'The members of the project who take part in policy management. Each one also needs a main role to open the policies.',
    section: 'People in policy management',
    nobody: 'Nobody takes part in policy management yet.',
    everyone: 'Every member of the project takes part in policy management.',
    add: 'Add to policy management',
    hint: '3 policy users have no main role yet and cannot open the policies.',
    removeTitle: 'Remove from policy management?',
    remove: 'Remove Bob Stone from policy management? They lose their policy role and see the policies no more.',
  },
  monitoring: {
    paths: ['assign-users', 'manage-users'],
    title: 'Monitoring users',
    loading: 'Loading the monitoring users',
    intro: 'The members of the project who take part in monitoring. Each one also needs a main role to open the pages.',
    section: 'People in monitoring',
    nobody: 'Nobody takes part in monitoring yet.',
    everyone: 'Every member of the project takes part in monitoring.',
    add: 'Add to monitoring',
    hint: '3 monitoring users have no main role yet and cannot open the pages.',
    removeTitle: 'Remove from monitoring?',
    remove:
      'Remove Bob Stone from monitoring? They lose their main role, their monitoring roles and the page permissions given to them.',
  },
};

describe.each(APPS)('UsersPage of $app', (d) => {
  const says = TEXTS[d.app];
  const topRole = d.app === 'monitoring' ? 'monitoring_admin' : 'policy_admin';
  const ANN = person(d, { id: 21, name: 'Ann Lee', main_role: topRole });
  const BOB = person(d, { id: 22, name: 'Bob Stone', main_role: null });
  const CARA = person(d, { id: 23, name: 'Cara Diaz', takesPart: false });
  const DAN = person(d, { id: 24, name: 'Dan Ford', takesPart: false });
  const EVE = person(d, { id: 25, name: 'Eve Park', takesPart: false });
  const ASSIGN = `POST ${api(d)}/${PEOPLE_API[d.app].assign}`;
  const UPDATE = `POST ${api(d)}/${PEOPLE_API[d.app].update}`;

  /** A tiny server keeping the app's users and the other members. */
  function server(
    routes: Record<string, StubHandler | StubHandler[]> = {},
    start = { assigned: [ANN, BOB], others: [CARA, DAN, EVE] },
  ) {
    let assigned: AppPerson[] = start.assigned;
    let others: AppPerson[] = start.others;
    const everyone = [...assigned, ...others];
    const setAssigned = (ids: number[]) => {
      const before = assigned;
      assigned = everyone
        .filter((p) => ids.includes(p.id))
        .map((p) => person(d, { ...p, main_role: before.some((a) => a.id === p.id) ? p.main_role : null }));
      others = everyone
        .filter((p) => !ids.includes(p.id))
        .map((p) => person(d, { ...p, main_role: null, takesPart: false }));
      return jsonResponse({ users: assigned });
    };
    return stubApi({
      ...sessionRoutes(d),
      [listCall(d, 'assigned')]: () => jsonResponse({ users: assigned }),
      [listCall(d, 'unassigned')]: () => jsonResponse({ users: others }),
      [ASSIGN]: (request: StubRequest) =>
        setAssigned([...assigned.map((p) => p.id), ...(request.body as { user_ids: number[] }).user_ids]),
      [UPDATE]: (request: StubRequest) => setAssigned((request.body as { user_ids: number[] }).user_ids),
      ...routes,
    });
  }

  const open = (path = d.users[0]!) => openScreen(d, path, d.users, <UsersPage d={d} />);

  const userRows = () =>
    [...document.querySelectorAll('tr[data-app-user-id]')].map((tr) =>
      [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent ?? ''),
    );
  const memberNames = () =>
    [...document.querySelectorAll('tr[data-member-id]')].map((tr) => tr.querySelectorAll('td')[1]?.textContent ?? '');
  const removeButton = (name: string) => {
    const button = document.querySelector<HTMLElement>(`button[aria-label="Remove ${name}"]`);
    if (!button) throw new Error(`no Remove button for ${name}`);
    return button;
  };
  /** Without a search box everyone is listed: the box above the checkboxes says so. */
  const chooseAll = d.search ? 'Choose everyone listed' : 'Choose everyone';

  it('shows placeholders while the lists load', async () => {
    server({
      [listCall(d, 'assigned')]: () => new Promise<Response>(() => {}),
      [listCall(d, 'unassigned')]: () => new Promise<Response>(() => {}),
    });
    await open();
    expect(document.querySelector('h1')!.textContent).toBe(says.title);
    expect(d.users).toEqual(says.paths);
    expect(document.querySelector(`[role="status"][aria-label="${says.loading}"]`)).not.toBeNull();
    expect(document.querySelector('[role="status"][aria-label="Loading the project members"]')).not.toBeNull();
  });

  it('lists the users with their main role and the other members, with the new-user link', async () => {
    server();
    await open(d.users.at(-1));
    expect(text()).toContain(says.intro);
    expect(document.getElementById('app-people-heading')!.textContent).toBe(says.section);
    await waitFor(() => expect(userRows()).toHaveLength(2));
    expect(userRows()).toEqual([
      ['Ann Lee', 'ann.lee', 'ann.lee@north.example', d.app === 'monitoring' ? 'Monitoring admin' : 'Policy admin'],
      ['Bob Stone', 'bob.stone', 'bob.stone@north.example', 'No role yet'],
    ]);
    await waitFor(() => expect(memberNames()).toEqual(['Cara Diaz', 'Dan Ford', 'Eve Park']));
    expect(await seriousViolations()).toEqual([]);
    const link = getControl('A person is not a member of the project yet? Ask for a new user');
    expect(link.getAttribute('href')).toBe('/app/admin/12/new-user-request');
  });

  it("links to the app's new-user request when the role may use it", async () => {
    server({ 'GET /api/me/permissions': jsonResponse({ permissions: { [`${d.app}:${d.createUser}`]: true } }) });
    await open();
    await waitFor(() => getControl('Someone is missing? Request a new user'));
    expect(getControl('Someone is missing? Request a new user').getAttribute('href')).toBe(
      `${base(d)}/${d.createUser}`,
    );
    expect(() => getControl('A person is not a member of the project yet? Ask for a new user')).toThrow();
  });

  it('says when nobody takes part and when everyone does', async () => {
    server({}, { assigned: [], others: [] });
    await open(d.users.at(-1));
    await waitFor(() => expect(text()).toContain(says.nobody));
    await waitFor(() => expect(text()).toContain(says.everyone));
    expect(() => getControl(says.add)).toThrow();
  });

  it('adds the chosen members and points to the main roles', async () => {
    const api = server();
    await open();
    await waitFor(() => expect(memberNames()).toHaveLength(3));
    const add = getControl(says.add);
    expect(add.hasAttribute('disabled')).toBe(true);

    await click(field(chooseAll));
    expect(field('Choose Dan Ford').checked).toBe(true);
    await click(field('Choose Dan Ford'));
    expect(field(chooseAll).checked).toBe(false);
    expect(field(chooseAll).getAttribute('data-indeterminate')).toBe('true');
    expect(text()).toContain('2 people chosen.');

    await click(add);
    await waitFor(() => expect(toasts()).toContain('Added 2 people.'));
    expect(api.calls(ASSIGN).map((call) => call.body)).toEqual([{ user_ids: [23, 25] }]);
    await waitFor(() => expect(memberNames()).toEqual(['Dan Ford']));
    expect(userRows().map((cells) => cells[0])).toEqual(['Ann Lee', 'Bob Stone', 'Cara Diaz', 'Eve Park']);
    expect(text()).toContain(says.hint);
    expect(getControl('Assign main roles').getAttribute('href')).toBe(`${base(d)}/assign-main-role`);
    expect(field('Choose Dan Ford').checked).toBe(false);

    await click(field('Choose Dan Ford'));
    expect(text()).toContain('1 person chosen.');
    await click(add);
    await waitFor(() => expect(toasts()).toContain('Added 1 person.'));
    expect(text()).toContain(says.hint.replace('3', '4'));
  });

  it('asks before removing someone and sends the list without them', async () => {
    const api = server();
    await open();
    await waitFor(() => removeButton('Bob Stone'));
    await click(removeButton('Bob Stone'));
    await waitFor(() => expect(text(dialog())).toContain(says.removeTitle));
    expect(text(dialog())).toContain(says.remove);
    await click(getControl('Cancel', dialog()));
    expect(api.calls(UPDATE)).toHaveLength(0);

    await click(removeButton('Bob Stone'));
    await waitFor(() => dialog());
    await click(getControl('Remove', dialog()));
    await waitFor(() => expect(toasts()).toContain('Removed Bob Stone.'));
    expect(api.calls(UPDATE).map((call) => call.body)).toEqual([{ user_ids: [21] }]);
    await waitFor(() => expect(userRows().map((cells) => cells[0])).toEqual(['Ann Lee']));
    await waitFor(() => expect(memberNames()).toEqual(['Bob Stone', 'Cara Diaz', 'Dan Ford', 'Eve Park']));
  });

  it('shows why the server refuses a removal', async () => {
    const refusal = 'You cannot remove yourself; ask another administrator.';
    const api = server({ [UPDATE]: jsonResponse({ message: refusal }, 409) });
    await open();
    await waitFor(() => removeButton('Ann Lee'));
    await click(removeButton('Ann Lee'));
    await waitFor(() => dialog());
    await click(getControl('Remove', dialog()));
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe(refusal));
    expect(api.calls(UPDATE)[0]!.body).toEqual({ user_ids: [22] });
    expect(userRows()).toHaveLength(2);
    expect(toasts()).not.toContain('Removed Ann Lee.');
  });

  it('shows the server message when the users cannot be loaded, and tries again', async () => {
    server({
      [listCall(d, 'assigned')]: [
        jsonResponse({ message: 'Your role may not manage these users.' }, 403),
        jsonResponse({ users: [ANN] }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('Your role may not manage these users.'));
    await click(getControl('Try again'));
    await waitFor(() => expect(userRows()).toHaveLength(1));
  });

  // The monitoring screen searches its people; the policy screen lists everyone (each app as SPEC shows it).
  it(d.search ? 'filters both lists with the search box' : 'lists everyone without a search box', async () => {
    server();
    await open();
    await waitFor(() => expect(memberNames()).toHaveLength(3));
    if (!d.search) {
      expect(() => field('Search people')).toThrow();
      return;
    }
    await typeInto(field('Search people'), 'dan');
    await waitFor(() => expect(memberNames()).toEqual(['Dan Ford']));
    // Nobody among the users matches.
    expect(text()).toContain(NO_MATCH);
    await typeInto(field('Search people'), 'BOB.STONE@');
    await waitFor(() => expect(userRows().map((cells) => cells[0])).toEqual(['Bob Stone']));
    expect(memberNames()).toEqual([]);
  });
});
