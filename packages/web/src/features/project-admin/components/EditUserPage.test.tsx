import type { Member } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { type StubRequest, stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { click, getControl, getField, text, waitFor } from '../../../test/render';
import { ANA, API, dialog, fieldError, openAdmin, pick, SAM, sessionRoutes, toasts } from './test-helpers';

const PATH = '/app/admin/12/edit-user/41';
const MEMBER = `${API}/members/41`;

/** A tiny server keeping the member, so the page reloaded after a change shows it. */
function server(routes: Record<string, unknown> = {}) {
  let member: Member = { ...SAM, main_roles: { ...SAM.main_roles } };
  return stubApi({
    ...sessionRoutes(),
    [`GET ${MEMBER}`]: () => jsonResponse(member),
    [`PATCH ${MEMBER}`]: (request: StubRequest) => {
      const body = request.body as {
        project_role?: Member['project_role'];
        main_roles?: Partial<Member['main_roles']>;
      };
      member = {
        ...member,
        project_role: body.project_role ?? member.project_role,
        main_roles: { ...member.main_roles, ...body.main_roles },
      };
      return jsonResponse(member);
    },
    [`DELETE ${MEMBER}`]: new Response(null, { status: 204 }),
    [`GET ${API}/dashboard`]: jsonResponse({ members: [ANA], pending_requests: [], unread_contact_messages: 0 }),
    ...(routes as Record<string, Response>),
  });
}

describe('EditUserPage', () => {
  it('shows the member and saves only the roles that changed', async () => {
    const api = server();
    await openAdmin(PATH);
    await waitFor(() => expect(text()).toContain('sam@example.org'));
    expect(document.querySelector('h1')!.textContent).toBe('Edit User');
    expect(text()).toContain('Sam Lee');
    expect(text()).toContain('Invited');
    expect(text()).toContain('Never');
    expect(getField('Project role').value).toBe('Member');
    expect(getControl('Save roles').hasAttribute('disabled')).toBe(true);

    await pick('Project role', 'Project admin');
    expect(getControl('Save roles').hasAttribute('disabled')).toBe(false);
    await click(getControl('Save roles'));
    await waitFor(() => expect(toasts()).toContain('Roles saved for Sam Lee.'));
    expect(api.calls(`PATCH ${MEMBER}`)[0]!.body).toEqual({ project_role: 'admin' });
    await waitFor(() => expect(getControl('Save roles').hasAttribute('disabled')).toBe(true));

    await pick('Monitoring role', 'Viewer');
    await click(getControl('Save roles'));
    await waitFor(() => expect(api.calls(`PATCH ${MEMBER}`)).toHaveLength(2));
    expect(api.calls(`PATCH ${MEMBER}`)[1]!.body).toEqual({ main_roles: { monitoring: 'viewer' } });
  });

  it("shows the server's message when the last project admin would be demoted", async () => {
    server({
      [`GET ${MEMBER}`]: jsonResponse({ ...ANA, user_id: 41 }),
      [`PATCH ${MEMBER}`]: jsonResponse(
        { message: 'A project needs at least one project admin.', code: 'last_project_admin' },
        409,
      ),
    });
    await openAdmin(PATH);
    await waitFor(() => expect(getField('Project role').value).toBe('Project admin'));
    await pick('Project role', 'Member');
    await click(getControl('Save roles'));
    await waitFor(() => expect(text()).toContain('A project needs at least one project admin.'));
    expect(document.querySelector('[role="alert"]')?.textContent).toBe('A project needs at least one project admin.');
  });

  it('puts a server field error on its field', async () => {
    server({
      [`PATCH ${MEMBER}`]: jsonResponse(
        { message: 'The given data was invalid.', errors: { 'main_roles.monitoring': ['Pick a monitoring role.'] } },
        422,
      ),
    });
    await openAdmin(PATH);
    await waitFor(() => getField('Monitoring role'));
    await pick('Monitoring role', 'Viewer');
    await click(getControl('Save roles'));
    await waitFor(() => expect(fieldError('Monitoring role')).toBe('Pick a monitoring role.'));
  });

  it('asks before removing the member, then goes back to the dashboard', async () => {
    const api = server();
    const router = await openAdmin(PATH);
    await waitFor(() => getControl('Remove from project'));
    await click(getControl('Remove from project'));
    await waitFor(() =>
      expect(text(dialog())).toContain('Sam Lee loses access to this project at once. Their account and records stay.'),
    );
    await click(getControl('Cancel', dialog()));
    expect(api.calls(`DELETE ${MEMBER}`)).toHaveLength(0);

    await click(getControl('Remove from project'));
    await waitFor(() => dialog());
    await click(getControl('Remove from project', dialog()));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/admin/12/admin-dashboard'));
    expect(api.calls(`DELETE ${MEMBER}`)).toHaveLength(1);
    expect(toasts()).toContain('Sam Lee was removed from the project.');
  });

  it('says so when the user is not a member of the project', async () => {
    server({ [`GET ${MEMBER}`]: jsonResponse({ message: 'Not found.' }, 404) });
    await openAdmin(PATH);
    await waitFor(() => expect(text()).toContain('This user is not a member of this project.'));
    expect(getControl('Back to Manage Users').getAttribute('href')).toBe('/app/admin/12/admin-dashboard');
    expect(document.querySelector('form')).toBeNull();
  });

  it('shows the not-found page for a malformed user id', async () => {
    const api = server();
    await openAdmin('/app/admin/12/edit-user/12345678901');
    expect(document.querySelector('h1')!.textContent).toBe('Page not found');
    expect(api.calls(`GET ${API}/members/12345678901`)).toHaveLength(0);
  });
});
