import type { SuperUserDetail } from '@portal/shared';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type StubHandler, type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, render, text, typeInto, waitFor } from '../../../test/render';
import { dialog, pickOption, toasts } from './test-helpers';
import { UserPage } from './UserPage';

const NO_ROLES = { monitoring: null, policy_management: null, chart_review: null };
const SAM: SuperUserDetail = {
  id: 4,
  username: 'sam',
  email: 'sam@example.org',
  first_name: 'Sam',
  last_name: 'Lee',
  role: 'user',
  status: 'active',
  locked: false,
  two_factor_enabled: true,
  last_login_at: '2026-03-04T18:00:00Z',
  project_count: 2,
  created_at: '2026-01-01T10:00:00Z',
  locked_until: null,
  password_set: true,
  is_demo: false,
  memberships: [
    {
      project_id: 12,
      project_name: 'North Clinic',
      project_role: 'admin',
      main_roles: { ...NO_ROLES, monitoring: 'viewer' },
    },
    { project_id: 13, project_name: 'South Hospital', project_role: 'simple', main_roles: NO_ROLES },
  ],
  updated_at: '2026-03-04T18:00:00Z',
};
const PROJECTS = {
  projects: [
    { id: 12, name: 'North Clinic', slug: 'north', active_apps: [] },
    { id: 13, name: 'South Hospital', slug: 'south', active_apps: [] },
    { id: 14, name: 'East Lab', slug: 'east', active_apps: [] },
  ],
};
const BASE = '/super/users/4';

/** Keeps the user, so every answer and reload shows the latest state. */
function server(initial: SuperUserDetail, routes: Record<string, StubHandler | StubHandler[]> = {}) {
  let user = structuredClone(initial);
  const names = new Map(PROJECTS.projects.map((project) => [project.id, project.name]));
  const action = (change: Partial<SuperUserDetail>) => () => {
    user = { ...user, ...change };
    return jsonResponse(user);
  };
  return stubApi({
    [`GET ${BASE}`]: () => jsonResponse(user),
    'GET /api/member/projects': jsonResponse(PROJECTS),
    [`PATCH ${BASE}`]: (request: StubRequest) => {
      user = { ...user, ...(request.body as Partial<SuperUserDetail>) };
      return jsonResponse(user);
    },
    [`PUT ${BASE}/memberships`]: (request: StubRequest) => {
      const { memberships } = request.body as { memberships: SuperUserDetail['memberships'] };
      user = {
        ...user,
        memberships: memberships.map((membership) => ({
          ...membership,
          project_name: names.get(membership.project_id) ?? '?',
        })),
      };
      return jsonResponse(user);
    },
    [`POST ${BASE}/disable`]: action({ status: 'disabled' }),
    [`POST ${BASE}/enable`]: action({ status: 'active' }),
    [`POST ${BASE}/reset-two-factor`]: action({ two_factor_enabled: false }),
    [`POST ${BASE}/unlock`]: action({ locked: false, locked_until: null }),
    [`POST ${BASE}/resend-invitation`]: action({}),
    [`POST ${BASE}/send-password-reset`]: action({}),
    ...routes,
  });
}

async function open(id = '4') {
  const router = createMemoryRouter(
    [
      { path: '/superadmin/users/:id', element: <UserPage /> },
      { path: '/superadmin/users', element: <p>Users list</p> },
    ],
    { initialEntries: [`/superadmin/users/${id}`] },
  );
  await render(<RouterProvider router={router} />);
  return router;
}

function card(id: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`section[aria-labelledby="${id}"]`);
  if (!element) throw new Error(`no card ${id}`);
  return element;
}

function membership(projectId: number): HTMLElement {
  const element = card('user-memberships').querySelector<HTMLElement>(`[data-project-id="${projectId}"]`);
  if (!element) throw new Error(`no membership ${projectId}`);
  return element;
}

const buttons = (root: HTMLElement) => [...root.querySelectorAll('button')].map((button) => text(button).trim());

describe('UserPage: loading', () => {
  it('shows the user with badges, memberships and the actions that apply', async () => {
    server(SAM);
    await open();
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Sam Lee'));
    expect(document.title).toBe('Sam Lee | Healthcare Quality Portal');
    expect(text()).toContain('sam · sam@example.org · ID 4');
    expect(document.querySelector('[data-status="active"]')?.textContent).toBe('Active');
    expect(getField('Email', card('user-profile')).value).toBe('sam@example.org');
    expect(getField('Username', card('user-profile')).value).toBe('sam');
    expect(getField('User', card('user-profile')).checked).toBe(true);
    expect(text(membership(12))).toContain('North Clinic');
    expect(getField('Project role', membership(12)).value).toBe('Project admin');
    expect(getField('Monitoring role', membership(12)).value).toBe('Viewer');
    expect(membership(12).querySelector('a')?.getAttribute('href')).toBe('/superadmin/projects/12');
    const actions = buttons(card('user-security'));
    expect(actions).toEqual(['Send password reset', 'Reset two-factor', 'Disable account']);
    expect(document.querySelector('[data-testid="locked-notice"]')).toBeNull();
    expect(document.querySelector('[data-testid="invited-notice"]')).toBeNull();
  });

  it('says when the account is locked or the invitation is still pending, with the matching actions', async () => {
    server({
      ...SAM,
      status: 'invited',
      password_set: false,
      two_factor_enabled: false,
      locked: true,
      locked_until: '2026-03-04T18:15:00Z',
      memberships: [],
    });
    await open();
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Sam Lee'));
    expect(text(document.querySelector('[data-testid="locked-notice"]')!)).toContain(
      'Locked until Mar 4, 2026, 10:15 AM',
    );
    expect(text(document.querySelector('[data-testid="invited-notice"]')!)).toContain(
      'Invitation pending: no password set yet',
    );
    expect(buttons(card('user-security'))).toEqual(['Unlock', 'Resend invitation', 'Disable account']);
    expect(text(card('user-memberships'))).toContain('Not a member of any project.');
  });

  it('shows a not-found panel with a way back on 404', async () => {
    stubApi({ 'GET /super/users/99': jsonResponse({ message: 'Not found.', code: 'NOT_FOUND' }, 404) });
    const router = await open('99');
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('User not found'));
    expect(text()).toContain('There is no user with ID 99.');
    await click(getControl('Back to Users'));
    expect(router.state.location.pathname).toBe('/superadmin/users');
  });

  it('offers Retry when loading fails', async () => {
    const api = server(SAM, {
      [`GET ${BASE}`]: [jsonResponse({ message: 'The database is unavailable.' }, 503), jsonResponse(SAM)],
    });
    await open();
    await waitFor(() => expect(text()).toContain('The database is unavailable.'));
    await click(getControl('Retry'));
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Sam Lee'));
    expect(api.calls(`GET ${BASE}`)).toHaveLength(2);
  });
});

describe('UserPage: profile', () => {
  it('sends only the fields that changed and shows the saved values', async () => {
    const api = server(SAM);
    await open();
    await waitFor(() => card('user-profile'));
    const profile = card('user-profile');
    await typeInto(getField('First name', profile), 'Samuel');
    await typeInto(getField('Email', profile), ' Samuel@Example.org');
    await click(getControl('Save profile', profile));
    await waitFor(() => expect(toasts()).toContain('Profile saved.'));
    expect(api.calls(`PATCH ${BASE}`)[0]!.body).toEqual({ email: 'samuel@example.org', first_name: 'Samuel' });
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Samuel Lee'));
    expect(getField('Email', profile).value).toBe('samuel@example.org');
  });

  it('checks the fields first and shows the server field errors inline', async () => {
    const api = server(SAM, {
      [`PATCH ${BASE}`]: jsonResponse(
        {
          message: 'A user with this username already exists.',
          code: 'CONFLICT',
          errors: { username: ['A user with this username already exists.'] },
        },
        409,
      ),
    });
    await open();
    await waitFor(() => card('user-profile'));
    const profile = card('user-profile');
    await typeInto(getField('Last name', profile), '  ');
    await click(getControl('Save profile', profile));
    expect(text(profile)).toContain('Enter the last name.');
    expect(api.calls(`PATCH ${BASE}`)).toHaveLength(0);

    await typeInto(getField('Last name', profile), 'Lee');
    await typeInto(getField('Username', profile), 'ana.ruiz');
    await click(getControl('Save profile', profile));
    await waitFor(() => expect(getField('Username', profile).getAttribute('aria-invalid')).toBe('true'));
    expect(text(profile)).toContain('A user with this username already exists.');
    expect(api.calls(`PATCH ${BASE}`)[0]!.body).toEqual({ username: 'ana.ruiz' });
  });

  it("asks before changing the global role and shows the server's refusal", async () => {
    const api = server(SAM, {
      [`PATCH ${BASE}`]: jsonResponse(
        { message: 'You cannot demote your own account. Ask another superadmin.', code: 'CONFLICT' },
        409,
      ),
    });
    await open();
    await waitFor(() => card('user-profile'));
    const profile = card('user-profile');
    await click(getField('Superadmin', profile));
    expect(text(profile)).toContain('A superadmin can see and change every project');
    await click(getControl('Save profile', profile));
    await waitFor(() => expect(text(dialog())).toContain('Make this user a superadmin?'));
    expect(api.calls(`PATCH ${BASE}`)).toHaveLength(0);
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`PATCH ${BASE}`)).toHaveLength(0);

    await click(getControl('Save profile', profile));
    await waitFor(() => dialog());
    await click(getControl('Make superadmin', dialog()));
    await waitFor(() => expect(toasts()).toContain('You cannot demote your own account. Ask another superadmin.'));
    expect(api.calls(`PATCH ${BASE}`)[0]!.body).toEqual({ role: 'superadmin' });
  });
});

describe('UserPage: memberships', () => {
  it('changes roles and adds a project, then saves the complete list', async () => {
    const api = server(SAM);
    await open();
    await waitFor(() => membership(13));
    await pickOption('Project role', 'Project admin', membership(13));
    await pickOption('Add a project', 'East Lab', card('user-memberships'));
    await waitFor(() => membership(14));
    await pickOption('Chart review role', 'Reviewer', membership(14));
    await click(getControl('Save memberships', card('user-memberships')));
    await waitFor(() => expect(toasts()).toContain('Memberships saved.'));
    expect(api.calls(`PUT ${BASE}/memberships`)[0]!.body).toEqual({
      memberships: [
        { project_id: 12, project_role: 'admin', main_roles: { ...NO_ROLES, monitoring: 'viewer' } },
        { project_id: 13, project_role: 'admin', main_roles: NO_ROLES },
        { project_id: 14, project_role: 'simple', main_roles: { ...NO_ROLES, chart_review: 'reviewer' } },
      ],
    });
    await waitFor(() => expect(text(card('user-memberships'))).not.toContain('Unsaved changes.'));
  });

  it('asks before removing the user from a project', async () => {
    const api = server(SAM);
    await open();
    await waitFor(() => membership(12));
    await click(membership(12).querySelector<HTMLElement>('button[aria-label="Remove North Clinic"]')!);
    expect(card('user-memberships').querySelector('[data-project-id="12"]')).toBeNull();
    await click(getControl('Save memberships', card('user-memberships')));
    await waitFor(() => expect(text(dialog())).toContain('Sam Lee will be removed from North Clinic'));
    expect(api.calls(`PUT ${BASE}/memberships`)).toHaveLength(0);
    await click(getControl('Save and remove', dialog()));
    await waitFor(() => expect(api.calls(`PUT ${BASE}/memberships`)).toHaveLength(1));
    expect(api.calls(`PUT ${BASE}/memberships`)[0]!.body).toEqual({
      memberships: [{ project_id: 13, project_role: 'simple', main_roles: NO_ROLES }],
    });
  });

  it("shows the server's refusal (the last project admin) as a toast and keeps the changes", async () => {
    server(SAM, {
      [`PUT ${BASE}/memberships`]: jsonResponse(
        { message: 'North Clinic needs at least one project admin.', code: 'CONFLICT' },
        409,
      ),
    });
    await open();
    await waitFor(() => membership(12));
    await pickOption('Project role', 'Member', membership(12));
    await click(getControl('Save memberships', card('user-memberships')));
    await waitFor(() => expect(toasts()).toContain('North Clinic needs at least one project admin.'));
    expect(getField('Project role', membership(12)).value).toBe('Member');
    expect(text(card('user-memberships'))).toContain('Unsaved changes.');
  });
});

describe('UserPage: actions', () => {
  it('confirms before disabling, then shows the account disabled with Enable', async () => {
    const api = server(SAM);
    await open();
    await waitFor(() => card('user-security'));
    await click(getControl('Disable account', card('user-security')));
    await waitFor(() => expect(text(dialog())).toContain('all of their sessions end at once'));
    expect(api.calls(`POST ${BASE}/disable`)).toHaveLength(0);
    await click(getControl('Disable account', dialog()));
    await waitFor(() => expect(toasts()).toContain('Account disabled.'));
    expect(api.calls(`POST ${BASE}/disable`)).toHaveLength(1);
    await waitFor(() => expect(buttons(card('user-security'))).toContain('Enable account'));
    expect(document.querySelector('[data-status="disabled"]')?.textContent).toBe('Disabled');
    // A disabled account gets no password reset.
    expect(buttons(card('user-security'))).not.toContain('Send password reset');
  });

  it("shows the server's message when a superadmin disables their own account", async () => {
    server(SAM, {
      [`POST ${BASE}/disable`]: jsonResponse(
        { message: 'You cannot disable your own account. Ask another superadmin.', code: 'CONFLICT' },
        409,
      ),
    });
    await open();
    await waitFor(() => card('user-security'));
    await click(getControl('Disable account', card('user-security')));
    await waitFor(() => dialog());
    await click(getControl('Disable account', dialog()));
    await waitFor(() => expect(toasts()).toContain('You cannot disable your own account. Ask another superadmin.'));
    expect(buttons(card('user-security'))).toContain('Disable account');
  });

  it('confirms before resetting two-factor; sends a password reset at once', async () => {
    const api = server(SAM);
    await open();
    await waitFor(() => card('user-security'));
    await click(getControl('Reset two-factor', card('user-security')));
    await waitFor(() => expect(text(dialog())).toContain('Reset two-factor authentication?'));
    await click(getControl('Reset two-factor', dialog()));
    await waitFor(() => expect(toasts()).toContain('Two-factor authentication reset.'));
    expect(api.calls(`POST ${BASE}/reset-two-factor`)).toHaveLength(1);
    await waitFor(() => expect(buttons(card('user-security'))).not.toContain('Reset two-factor'));

    await click(getControl('Send password reset', card('user-security')));
    await waitFor(() => expect(toasts()).toContain('Password reset email sent to sam@example.org.'));
    expect(api.calls(`POST ${BASE}/send-password-reset`)).toHaveLength(1);
  });

  it("asks for the superadmin's password when resetting two-factor answers 423, then resets with it", async () => {
    const asked = jsonResponse(
      {
        message: 'Please confirm your password to continue.',
        code: 'PASSWORD_CONFIRMATION_REQUIRED',
        details: { reauthenticate: { password: true, sso: null } },
      },
      423,
    );
    const api = server(SAM, {
      [`POST ${BASE}/reset-two-factor`]: [
        asked,
        jsonResponse(
          { message: 'The password is incorrect.', errors: { password: ['The password is incorrect.'] } },
          422,
        ),
        jsonResponse({ ...SAM, two_factor_enabled: false }),
      ],
    });
    await open();
    await waitFor(() => card('user-security'));
    await click(getControl('Reset two-factor', card('user-security')));
    await waitFor(() => expect(text(dialog())).toContain('Reset two-factor authentication?'));
    await click(getControl('Reset two-factor', dialog()));

    await waitFor(() => expect(text(dialog())).toContain('Please confirm your password to continue.'));
    await typeInto(getField('Password', dialog()), 'wrong');
    await click(getControl('Confirm', dialog()));
    await waitFor(() => expect(text(dialog())).toContain('The password is incorrect.'));
    expect(toasts()).not.toContain('Two-factor authentication reset.');

    await typeInto(getField('Password', dialog()), 'Kx7#qPv9!mZt2$Lw');
    await click(getControl('Confirm', dialog()));
    await waitFor(() => expect(toasts()).toContain('Two-factor authentication reset.'));
    expect(api.calls(`POST ${BASE}/reset-two-factor`).map((call) => call.body)).toEqual([
      undefined,
      { password: 'wrong' },
      { password: 'Kx7#qPv9!mZt2$Lw' },
    ]);
  });

  it('unlocks and resends the invitation', async () => {
    const api = server({ ...SAM, status: 'invited', password_set: false, locked: true, two_factor_enabled: false });
    await open();
    await waitFor(() => card('user-security'));
    await click(getControl('Unlock', card('user-security')));
    await waitFor(() => expect(toasts()).toContain('Account unlocked.'));
    expect(api.calls(`POST ${BASE}/unlock`)).toHaveLength(1);
    await waitFor(() => expect(document.querySelector('[data-testid="locked-notice"]')).toBeNull());
    await click(getControl('Resend invitation', card('user-security')));
    await waitFor(() => expect(toasts()).toContain('Invitation sent again to sam@example.org.'));
    expect(api.calls(`POST ${BASE}/resend-invitation`)).toHaveLength(1);
  });
});
