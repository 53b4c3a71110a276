import type { SuperUserDetail, SuperUserRow } from '@portal/shared';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, render, text, typeInto, waitFor } from '../../../test/render';
import { dialog, pickOption, toasts } from './test-helpers';
import { UsersPage } from './UsersPage';

const ANA: SuperUserRow = {
  id: 3,
  username: 'ana.ruiz',
  email: 'ana@example.org',
  first_name: 'Ana',
  last_name: 'Ruiz',
  role: 'superadmin',
  status: 'active',
  locked: false,
  two_factor_enabled: true,
  last_login_at: '2026-03-04T18:00:00Z',
  project_count: 2,
  created_at: '2026-01-01T10:00:00Z',
};
const SAM: SuperUserRow = {
  ...ANA,
  id: 4,
  username: 'sam',
  email: 'sam@example.org',
  first_name: 'Sam',
  last_name: 'Lee',
  role: 'user',
  status: 'invited',
  locked: true,
  two_factor_enabled: false,
  last_login_at: null,
  project_count: 0,
};
const PROJECTS = {
  projects: [
    { id: 12, name: 'North Clinic', slug: 'north', active_apps: [] },
    { id: 13, name: 'South Hospital', slug: 'south', active_apps: [] },
  ],
};

function detailOf(row: SuperUserRow, extra: Partial<SuperUserDetail> = {}): SuperUserDetail {
  return {
    ...row,
    locked_until: null,
    password_set: false,
    is_demo: false,
    memberships: [],
    updated_at: row.created_at,
    ...extra,
  };
}

/** Filters like the server: q in name, username or email; role; status (locked apart); paging. */
function server(rows: SuperUserRow[], routes: Record<string, StubHandler | StubHandler[]> = {}, total?: number) {
  const list = (request: StubRequest) => {
    const q = request.query.get('q')?.toLowerCase();
    const role = request.query.get('role');
    const status = request.query.get('status');
    const shown = rows.filter(
      (row) =>
        (!q || `${row.first_name} ${row.last_name} ${row.username} ${row.email}`.toLowerCase().includes(q)) &&
        (!role || row.role === role) &&
        (!status || (status === 'locked' ? row.locked : row.status === status)),
    );
    return jsonResponse({
      users: shown,
      total: total ?? shown.length,
      page: Number(request.query.get('page')),
      page_size: Number(request.query.get('page_size')),
    });
  };
  return stubApi({
    'GET /super/users': list,
    'GET /api/member/projects': jsonResponse(PROJECTS),
    ...routes,
  });
}

async function open(path = '/superadmin/users') {
  const router = createMemoryRouter(
    [
      { path: '/superadmin/users', element: <UsersPage /> },
      { path: '/superadmin/users/:id', element: <p>User page</p> },
    ],
    { initialEntries: [path] },
  );
  await render(<RouterProvider router={router} />);
  await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Users'));
  return router;
}

function row(id: number): HTMLElement {
  const element = document.querySelector<HTMLElement>(`tr[data-user-id="${id}"]`);
  if (!element) throw new Error(`no row ${id}`);
  return element;
}

const cells = (id: number) => [...row(id).querySelectorAll('td')].map((cell) => text(cell).trim());

describe('UsersPage: list', () => {
  it('lists the users with their role, status, two-factor, last sign-in and project count', async () => {
    const api = server([ANA, SAM]);
    await open();
    await waitFor(() => row(4));
    expect(cells(3)).toEqual([
      'Ana Ruiz',
      'ana.ruiz',
      'ana@example.org',
      'Superadmin',
      'Active',
      'On',
      'Mar 4, 2026, 10:00 AM',
      '2',
    ]);
    expect(cells(4)).toEqual(['Sam Lee', 'sam', 'sam@example.org', 'User', 'InvitedLocked', 'Off', 'Never', '0']);
    expect(row(3).querySelector('a')?.getAttribute('href')).toBe('/superadmin/users/3');
    expect(text(document.querySelector('[data-testid="users-total"]')!)).toBe('2 users');
    expect(document.title).toBe('Users | Healthcare Quality Portal');
    const query = api.calls('GET /super/users')[0]!.query;
    expect(query.get('page')).toBe('1');
    expect(query.get('page_size')).toBe('25');
    expect(query.has('q')).toBe(false);
  });

  it('searches after a pause, keeps the search in the URL, and reads the filters back from it', async () => {
    const api = server([ANA, SAM]);
    const router = await open();
    await waitFor(() => row(4));
    await typeInto(getField('Search'), 'ana');
    // Debounced: nothing is sent at once.
    expect(api.calls('GET /super/users').some((call) => call.query.get('q') === 'ana')).toBe(false);
    await waitFor(() => expect(router.state.location.search).toBe('?q=ana'));
    await waitFor(() => expect(document.querySelector('tr[data-user-id="4"]')).toBeNull());
    expect(api.calls('GET /super/users').at(-1)!.query.get('q')).toBe('ana');
    expect(text(document.querySelector('[data-testid="users-total"]')!)).toBe('1 user');

    // Typing replaces the history entry; leaving for a user and coming back keeps the search.
    await click(row(3).querySelector('a')!);
    await waitFor(() => expect(text()).toContain('User page'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(getField('Search').value).toBe('ana'));
    expect(router.state.location.search).toBe('?q=ana');

    // A link with another search puts it in the box.
    await act(() => router.navigate('/superadmin/users?q=sam'));
    await waitFor(() => expect(getField('Search').value).toBe('sam'));
    await waitFor(() => row(4));
  });

  it('opens with the filters of the URL and filters by status from the select', async () => {
    const api = server([ANA, SAM]);
    const router = await open('/superadmin/users?q=sam&role=user');
    await waitFor(() => row(4));
    expect(getField('Search').value).toBe('sam');
    expect(getField('Role').value).toBe('User');
    const first = api.calls('GET /super/users')[0]!.query;
    expect(first.get('q')).toBe('sam');
    expect(first.get('role')).toBe('user');

    await pickOption('Status', 'Locked');
    await waitFor(() => expect(router.state.location.search).toContain('status=locked'));
    await waitFor(() => expect(api.calls('GET /super/users').at(-1)!.query.get('status')).toBe('locked'));
    expect(row(4)).toBeTruthy();
  });

  it('drops a search still waiting when the filters are cleared', async () => {
    server([ANA]);
    const router = await open('/superadmin/users?status=disabled');
    await waitFor(() => expect(text()).toContain('No users match these filters.'));
    await typeInto(getField('Search'), 'zzz');
    await click(getControl('Clear filters'));
    await waitFor(() => row(3));
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(router.state.location.search).toBe('');
    expect(getField('Search').value).toBe('');
  });

  it('filters by project from the list of projects', async () => {
    const api = server([ANA]);
    const router = await open();
    await waitFor(() => row(3));
    await pickOption('Project', 'South Hospital');
    await waitFor(() => expect(api.calls('GET /super/users').at(-1)!.query.get('project')).toBe('13'));
    expect(router.state.location.search).toBe('?project=13');
  });

  it('shows the empty state with a button that clears the filters', async () => {
    const api = server([ANA]);
    const router = await open('/superadmin/users?q=nobody&status=disabled');
    await waitFor(() => expect(text()).toContain('No users match these filters.'));
    await click(getControl('Clear filters'));
    await waitFor(() => row(3));
    expect(router.state.location.search).toBe('');
    expect(getField('Search').value).toBe('');
    const last = api.calls('GET /super/users').at(-1)!.query;
    expect(last.has('q')).toBe(false);
    expect(last.has('status')).toBe(false);
  });

  it('pages through a long list', async () => {
    const api = server([ANA], {}, 60);
    const router = await open();
    await waitFor(() => row(3));
    expect(text(document.querySelector('[data-testid="users-total"]')!)).toBe('60 users');
    await click(document.querySelector<HTMLElement>('button[aria-label="Page 3"]')!);
    await waitFor(() => expect(api.calls('GET /super/users').at(-1)!.query.get('page')).toBe('3'));
    expect(router.state.location.search).toBe('?page=3');
  });

  it('shows an error with Retry when the list fails', async () => {
    const api = server([ANA], {
      'GET /super/users': [
        jsonResponse({ message: 'The database is unavailable.' }, 503),
        jsonResponse({ users: [ANA], total: 1, page: 1, page_size: 25 }),
      ],
    });
    await open();
    await waitFor(() => expect(text()).toContain('The database is unavailable.'));
    await click(getControl('Retry'));
    await waitFor(() => row(3));
    expect(api.calls('GET /super/users')).toHaveLength(2);
  });
});

describe('UsersPage: new user', () => {
  async function fill(values: Record<string, string>) {
    for (const [label, value] of Object.entries(values)) await typeInto(getField(label, dialog()), value);
  }

  it('checks the fields, sends the invitation and opens the new user', async () => {
    const created = detailOf({ ...SAM, id: 9, email: 'kim@example.org', status: 'invited', locked: false });
    const api = server([ANA], { 'POST /super/users': jsonResponse(created, 201) });
    const router = await open();
    await click(getControl('New user'));
    await waitFor(() => dialog());
    await click(getControl('Create and send invitation', dialog()));
    expect(text(dialog())).toContain('Enter a valid email address.');
    expect(text(dialog())).toContain('Enter the first name.');
    expect(api.calls('POST /super/users')).toHaveLength(0);

    await fill({ Email: ' Kim@Example.org ', Username: 'kim', 'First name': 'Kim', 'Last name': 'Park' });
    expect(document.querySelector('[data-testid="superadmin-warning"]')).toBeNull();
    await pickOption('Add a project', 'North Clinic', dialog());
    await waitFor(() => expect(dialog().querySelector('[data-project-id="12"]')).not.toBeNull());
    await pickOption('Project role', 'Project admin', dialog().querySelector('[data-project-id="12"]')!);
    await click(getControl('Create and send invitation', dialog()));

    await waitFor(() => expect(router.state.location.pathname).toBe('/superadmin/users/9'));
    expect(api.calls('POST /super/users')[0]!.body).toEqual({
      email: 'kim@example.org',
      username: 'kim',
      first_name: 'Kim',
      last_name: 'Park',
      role: 'user',
      memberships: [
        {
          project_id: 12,
          project_role: 'admin',
          main_roles: { monitoring: null, policy_management: null, chart_review: null },
        },
      ],
    });
    await waitFor(() => expect(toasts()).toContain('Invitation sent to kim@example.org'));
  });

  it('warns when the superadmin role is picked', async () => {
    server([ANA]);
    await open();
    await click(getControl('New user'));
    await waitFor(() => dialog());
    await click(getField('Superadmin', dialog()));
    expect(text(dialog().querySelector('[data-testid="superadmin-warning"]')!)).toContain(
      'A superadmin can see and change every project',
    );
  });

  it("shows the server's field errors on the fields", async () => {
    server([ANA], {
      'POST /super/users': jsonResponse(
        {
          message: 'A user with this email already exists.',
          code: 'CONFLICT',
          errors: {
            email: ['A user with this email already exists.'],
            username: ['A user with this username already exists.'],
          },
        },
        409,
      ),
    });
    const router = await open();
    await click(getControl('New user'));
    await waitFor(() => dialog());
    await fill({ Email: 'ana@example.org', Username: 'ana.ruiz', 'First name': 'Ana', 'Last name': 'Ruiz' });
    await click(getControl('Create and send invitation', dialog()));
    await waitFor(() => expect(getField('Email', dialog()).getAttribute('aria-invalid')).toBe('true'));
    expect(text(dialog())).toContain('A user with this email already exists.');
    expect(text(dialog())).toContain('A user with this username already exists.');
    expect(getField('Username', dialog()).getAttribute('aria-invalid')).toBe('true');
    expect(router.state.location.pathname).toBe('/superadmin/users');
  });
});
