import type { AppPerson } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { PEOPLE_API } from '../../../lib/people';
import { MAIN_ROLE_DESCRIPTIONS, roleLabel } from '../../../lib/role-labels';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, text, waitFor } from '../../../test/render';
import { errorOf, field, optionsOf, pick, seriousViolations, toasts } from '../../../test/ui';
import type { MainRolesScreen, PeopleScreens } from '../apps';
import { MainRolesPage } from './MainRolesPage';
import { APPS, api, base, listCall, openScreen, person, sessionRoutes } from './people-test-fixtures';

/**
 * Per app: its top role, two other roles, what the role guide says of each role, and the texts of its screens as
 * they read (e2e/policies.spec.ts reads some of them).
 */
const ROLES = {
  policy_management: {
    screens: [
      {
        title: 'Assign main roles',
        intro:
          "A policy user's main role decides what they may do in policy management. Change the roles already given",
        link: 'edit-main-role',
        sections: ['Policy users without a main role'],
      },
      {
        title: 'Main roles',
        intro:
          "A policy user's main role decides what they may do in policy management. Give a role to those without one",
        link: 'assign-main-role',
        sections: ['Policy users with a main role'],
      },
    ],
    loading: 'Loading the policy users',
    everyone: 'Every policy user has a main role.',
    nobody: null,
    top: 'policy_admin',
    first: 'author',
    second: 'reader',
    guide: [
      'Policy admin: Everything, including numbering, departments, people and import.',
      'Author: Writes drafts and new versions.',
      'Reviewer: Reviews the drafts of their departments.',
      'Signer: Signs policies.',
      'Reader: Reads and acknowledges published policies.',
    ],
  },
  monitoring: {
    screens: [
      {
        title: 'Main roles',
        intro: "A monitoring user's main role decides what they may do in monitoring. Add or remove monitoring users",
        link: 'manage-users',
        sections: ['Monitoring users without a main role', 'Monitoring users with a main role'],
      },
    ],
    loading: 'Loading the monitoring users',
    everyone: 'Every monitoring user has a main role.',
    nobody: ['Nobody takes part in monitoring yet.', 'Add people to monitoring', 'assign-users'],
    top: 'monitoring_admin',
    first: 'page_owner',
    second: 'data_entry',
    guide: [
      'Monitoring admin: Everything, including the page tree, levels, users and permissions.',
      'Page owner: Edits the pages they own and writes key insights.',
      'Data entry: Imports data and answers data requests.',
      'Viewer: Reads pages and asks for data.',
    ],
  },
} as const;

/** The app's screen showing the users without (or with) a main role. */
const screenWith = (d: PeopleScreens, has: 'without' | 'with') =>
  d.mainRoles.find((screen) => screen.sections.some((section) => section.has === has))!;
const sectionOf = (screen: MainRolesScreen, has: 'without' | 'with') =>
  screen.sections.find((section) => section.has === has)!;

describe.each(APPS)('MainRolesPage of $app', (d) => {
  const roles = ROLES[d.app];
  const ANN = person(d, { id: 21, name: 'Ann Lee', main_role: roles.top });
  const BOB = person(d, { id: 22, name: 'Bob Stone', main_role: roles.first });
  const CARA = person(d, { id: 23, name: 'Cara Diaz' });
  const DAN = person(d, { id: 24, name: 'Dan Ford' });
  const EVE = person(d, { id: 25, name: 'Eve Park' });
  const BULK = `POST ${api(d)}/${PEOPLE_API[d.app].bulk}`;
  const paths = d.mainRoles.map((screen) => screen.path);

  /** A tiny server keeping the app's users and their main roles: every list the app offers, the bulk call. */
  function server(
    routes: Record<string, StubHandler | StubHandler[]> = {},
    start: AppPerson[] = [ANN, BOB, CARA, DAN, EVE],
  ) {
    let people = start;
    const lists = {
      assigned: () => people,
      'unassigned-main-role': () => people.filter((p) => p.main_role === null),
      'assigned-main-role': () => people.filter((p) => p.main_role !== null),
    };
    const answer = (list: keyof typeof lists) => () => jsonResponse({ users: lists[list]() });
    return stubApi({
      ...sessionRoutes(d),
      ...Object.fromEntries(
        (Object.keys(lists) as (keyof typeof lists)[])
          .filter((list) => PEOPLE_API[d.app].lists[list])
          .map((list) => [listCall(d, list), answer(list)]),
      ),
      [BULK]: (request: StubRequest) => {
        const { items } = request.body as { items: { user_id: number; main_role: string | null }[] };
        people = people.map((p) => {
          const item = items.find((entry) => entry.user_id === p.id);
          return item ? { ...p, main_role: item.main_role } : p;
        });
        return answer(PEOPLE_API[d.app].bulkAnswers as keyof typeof lists)();
      },
      ...routes,
    });
  }

  const open = (screen: MainRolesScreen, at = screen.path) =>
    openScreen(d, at, paths, <MainRolesPage d={d} screen={screen} />);

  /** The rows of a section (all sections without one): name, the role shown, whether it changed. */
  function rows(section?: string): { name: string; role: string; changed: boolean }[] {
    const root = section ? document.querySelector(`section[aria-labelledby="${section}"]`) : document;
    return [...(root?.querySelectorAll<HTMLElement>('tr[data-user-id]') ?? [])].map((tr) => ({
      name: tr.querySelector('td')?.textContent ?? '',
      role: tr.querySelector<HTMLInputElement>('input[aria-label^="Main role of"]')?.value ?? '',
      changed: tr.hasAttribute('data-changed'),
    }));
  }
  const namesIn = (section: string) => rows(section).map((row) => row.name);
  const row = (name: string) => rows().find((r) => r.name === name)!;

  it('has the screens of the app, in its words', async () => {
    server();
    expect(d.mainRoles.map((screen) => screen.title)).toEqual(roles.screens.map((screen) => screen.title));
    for (const [index, screen] of d.mainRoles.entries()) {
      const says = roles.screens[index]!;
      document.body.innerHTML = '';
      await open(screen);
      expect(document.querySelector('h1')!.textContent).toBe(says.title);
      expect(text()).toContain(says.intro);
      expect(getControl(screen.link.label).getAttribute('href')).toBe(`${base(d)}/${says.link}`);
      await waitFor(() =>
        expect(screen.sections.map((section) => document.getElementById(section.id)?.textContent)).toEqual(
          says.sections,
        ),
      );
    }
  });

  it('shows placeholders while the list loads', async () => {
    for (const screen of d.mainRoles) {
      document.body.innerHTML = '';
      server({ [listCall(d, screen.list)]: () => new Promise<Response>(() => {}) });
      await open(screen);
      expect(document.querySelector('h1')!.textContent).toBe(screen.title);
      expect(document.querySelector(`[role="status"][aria-label="${roles.loading}"]`)).not.toBeNull();
    }
  });

  it('tells what each role may do', async () => {
    server();
    for (const screen of d.mainRoles) {
      document.body.innerHTML = '';
      await open(screen);
      const guide = document.querySelector('[data-testid="role-guide"]')!.textContent;
      for (const line of roles.guide) expect(guide).toContain(line);
      expect(Object.keys(MAIN_ROLE_DESCRIPTIONS[d.app])).toHaveLength(roles.guide.length);
    }
  });

  it('lists the users without and with a main role in their sections', async () => {
    server();
    for (const screen of d.mainRoles) {
      document.body.innerHTML = '';
      await open(screen);
      for (const section of screen.sections) {
        const expected = section.has === 'without' ? ['Cara Diaz', 'Dan Ford', 'Eve Park'] : ['Ann Lee', 'Bob Stone'];
        await waitFor(() => expect(namesIn(section.id)).toEqual(expected));
      }
      expect(await seriousViolations()).toEqual([]);
    }
  });

  it('says when everyone has a role and when nobody has one', async () => {
    for (const [has, people, empty] of [
      ['without', [ANN], roles.everyone],
      ['with', [CARA], 'Nobody has a main role yet.'],
    ] as const) {
      document.body.innerHTML = '';
      server({}, [...people]);
      const screen = screenWith(d, has);
      await open(screen);
      await waitFor(() => expect(text()).toContain(empty));
      // The save button is there while the screen lists someone.
      expect(text().includes('Save')).toBe(rows().length > 0);
    }
  });

  it('says when nobody takes part, where a screen lists every user of the app', async () => {
    server({}, []);
    for (const screen of d.mainRoles) {
      document.body.innerHTML = '';
      await open(screen);
      if (screen.list === 'assigned') {
        const [nobody, link, to] = roles.nobody!;
        await waitFor(() => expect(text()).toContain(nobody));
        expect(getControl(link).getAttribute('href')).toBe(`${base(d)}/${to}`);
        expect(text()).not.toContain('Save');
      } else {
        // Another list cannot tell: the section says it has nobody.
        const section = screen.sections[0]!;
        await waitFor(() => expect(document.getElementById(section.id)).not.toBeNull());
        expect(roles.nobody).toBeNull();
        expect(text()).not.toContain('Nobody takes part');
      }
    }
  });

  it('offers the roles (and "No role" where it takes a role away) to the people without one', async () => {
    server();
    const screen = screenWith(d, 'without');
    await open(screen);
    await waitFor(() => expect(namesIn(sectionOf(screen, 'without').id)).toHaveLength(3));
    const labels = Object.keys(MAIN_ROLE_DESCRIPTIONS[d.app]).map(roleLabel);
    if (sectionOf(screen, 'without').choices === 'roles') {
      // Policy management: a role to choose, nothing to take away.
      expect(await optionsOf('Main role of Cara Diaz')).toEqual(labels);
      expect(field('Main role of Cara Diaz').placeholder).toBe('Choose a role');
      expect(row('Cara Diaz').role).toBe('');
    } else {
      // Monitoring: "No role" is what they have, and a choice.
      expect(await optionsOf('Main role of Cara Diaz')).toEqual(['No role', ...labels]);
      expect(row('Cara Diaz').role).toBe('No role');
    }
  });

  it('gives roles to the people without one, sending only the changed rows', async () => {
    const api = server();
    const screen = screenWith(d, 'without');
    const without = sectionOf(screen, 'without').id;
    await open(screen);
    await waitFor(() => expect(namesIn(without)).toEqual(['Cara Diaz', 'Dan Ford', 'Eve Park']));
    expect(getControl('Save 0 changes').hasAttribute('disabled')).toBe(true);

    await pick('Main role of Cara Diaz', roleLabel(roles.first));
    await pick('Main role of Eve Park', roleLabel(roles.second));
    expect(rows(without).map((r) => [r.name, r.changed])).toEqual([
      ['Cara Diaz', true],
      ['Dan Ford', false],
      ['Eve Park', true],
    ]);
    expect(row('Cara Diaz').role).toBe(roleLabel(roles.first));
    await click(getControl('Save 2 changes'));
    await waitFor(() => expect(toasts()).toContain('Saved 2 changes.'));
    expect(api.calls(BULK).map((call) => call.body)).toEqual([
      {
        items: [
          { user_id: 23, main_role: roles.first },
          { user_id: 25, main_role: roles.second },
        ],
      },
    ]);
    await waitFor(() => expect(namesIn(without)).toEqual(['Dan Ford']));
    expect(getControl('Save 0 changes').hasAttribute('disabled')).toBe(true);
  });

  it('changes roles: a row changed back is not sent, "No role" sends null', async () => {
    const api = server();
    const screen = screenWith(d, 'with');
    const withRole = sectionOf(screen, 'with').id;
    await open(screen);
    await waitFor(() => expect(namesIn(withRole)).toEqual(['Ann Lee', 'Bob Stone']));
    expect(rows(withRole)).toEqual([
      { name: 'Ann Lee', role: roleLabel(roles.top), changed: false },
      { name: 'Bob Stone', role: roleLabel(roles.first), changed: false },
    ]);

    await pick('Main role of Ann Lee', roleLabel(roles.second));
    await pick('Main role of Bob Stone', 'No role');
    expect(getControl('Save 2 changes')).toBeDefined();
    await pick('Main role of Ann Lee', roleLabel(roles.top));
    expect(rows(withRole).map((r) => r.changed)).toEqual([false, true]);
    expect(getControl('Undo changes')).toBeDefined();

    await click(getControl('Save 1 change'));
    await waitFor(() => expect(toasts()).toContain('Saved 1 change.'));
    expect(api.calls(BULK).map((call) => call.body)).toEqual([{ items: [{ user_id: 22, main_role: null }] }]);
    await waitFor(() => expect(namesIn(withRole)).toEqual(['Ann Lee']));
  });

  it('undoes the changes not saved', async () => {
    server();
    const screen = screenWith(d, 'with');
    await open(screen);
    await waitFor(() => getControl('Save 0 changes'));
    await pick('Main role of Bob Stone', roleLabel(roles.second));
    await click(getControl('Undo changes'));
    expect(row('Bob Stone')).toEqual({ name: 'Bob Stone', role: roleLabel(roles.first), changed: false });
    expect(() => getControl('Undo changes')).toThrow();
  });

  it('shows the errors of the server beside their rows, saves nothing and keeps the changes', async () => {
    const refused = 'Eve Park no longer takes part.';
    const api = server({
      [BULK]: jsonResponse({ message: 'Some roles could not be saved.', errors: { 'items.1': [refused] } }, 400),
    });
    const screen = screenWith(d, 'without');
    await open(screen);
    await waitFor(() => expect(namesIn(sectionOf(screen, 'without').id)).toHaveLength(3));
    await pick('Main role of Cara Diaz', roleLabel(roles.first));
    await pick('Main role of Eve Park', roleLabel(roles.second));
    await click(getControl('Save 2 changes'));
    await waitFor(() => expect(errorOf('Main role of Eve Park')).toBe(refused));
    expect(errorOf('Main role of Cara Diaz')).toBeNull();
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(
      'Some roles could not be saved. Nothing was saved; see the marked rows.',
    );
    expect(api.calls(BULK)).toHaveLength(1);
    expect(rows(sectionOf(screen, 'without').id).map((r) => r.changed)).toEqual([true, false, true]);
    expect(getControl('Save 2 changes')).toBeDefined();

    // Choosing another role for the row clears its error.
    await pick('Main role of Eve Park', roleLabel(roles.first));
    expect(errorOf('Main role of Eve Park')).toBeNull();
  });

  it('shows the message of a refusal (409) and keeps the changes', async () => {
    const refusal = 'You cannot change your own role; ask another administrator.';
    server({ [BULK]: jsonResponse({ message: refusal }, 409) });
    const screen = screenWith(d, 'with');
    await open(screen);
    await waitFor(() => getControl('Save 0 changes'));
    await pick('Main role of Ann Lee', roleLabel(roles.second));
    await click(getControl('Save 1 change'));
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe(refusal));
    expect(field('Main role of Ann Lee').value).toBe(roleLabel(roles.second));
    expect(row('Ann Lee').changed).toBe(true);
    expect(getControl('Save 1 change')).toBeDefined();
  });

  it('shows the screen it is given, whatever the path', async () => {
    server();
    const screen = d.mainRoles[0]!;
    await open(screen, paths.at(-1));
    expect(document.querySelector('h1')!.textContent).toBe(screen.title);
  });
});
