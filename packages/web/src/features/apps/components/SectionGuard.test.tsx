import { ACCESS_DENIED } from '@portal/shared';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AccessDenied, ASSIGN_MAIN_ROLE_NOTE, PERMISSION_MATRIX_NOTE } from '../../../components/AccessDenied';
import { resetDashboardAuditForTests } from '../../../lib/monitoring-audit';
import { stubApi } from '../../../test/api-stub';
import { jsonResponse } from '../../../test/fetch';
import { portalRoutes } from '../../../test/portal-stub';
import { click, getControl, render, renderRoute, text, waitFor } from '../../../test/render';

beforeEach(() => {
  localStorage.clear();
  resetDashboardAuditForTests();
});

const panel = () => document.querySelector('[aria-labelledby="access-denied-title"]');
const reason = () => document.querySelector('[data-testid="access-denied-reason"]')?.textContent;

describe('AccessDenied panel', () => {
  it.each([
    ['monitoring', 'forbidden', ACCESS_DENIED.forbidden],
    ['policy_management', 'forbidden', 'Your role is not permitted to access this section.'],
    [
      'monitoring',
      'unconfigured',
      'You do not have access to monitoring features yet. Contact an administrator to assign you a monitoring role.',
    ],
    [
      'policy_management',
      'unconfigured',
      'You do not have access to policy management features yet. Contact an administrator to assign you a policy management role.',
    ],
    [
      'monitoring',
      'roleUnavailable',
      'We could not determine your monitoring role. Please refresh or contact support.',
    ],
    [
      'policy_management',
      'roleUnavailable',
      'We could not determine your policy management role. Please refresh or contact support.',
    ],
    ['monitoring', undefined, 'Access denied.'],
  ] as const)('%s / %s', async (app, why, expected) => {
    await render(
      <MemoryRouter>
        <AccessDenied app={app} reason={why} userRole={why === 'forbidden' ? 'viewer' : null} />
      </MemoryRouter>,
    );
    expect(document.querySelector('h1')?.textContent).toBe('Access Denied !');
    expect(reason()).toBe(expected);
    expect(text()).toContain(`Your role: ${why === 'forbidden' ? 'Viewer' : 'No role assigned'}`);
    expect(text()).toContain(PERMISSION_MATRIX_NOTE);
    expect(text().includes(ASSIGN_MAIN_ROLE_NOTE)).toBe(why === 'unconfigured');
    expect(getControl('Back to Dashboard').getAttribute('href')).toBe('/member/projects');
  });
});

const ME = (main_role: string | null, project_role: 'admin' | 'simple' = 'simple') =>
  jsonResponse({ main_role, project_role, is_superadmin: false });

function monitoring(me: Response, rules: unknown[] = [], map: Record<string, boolean> = {}) {
  return stubApi({
    ...portalRoutes(),
    'GET /api/projects/4/monitoring/me': me,
    'GET /api/projects/4/monitoring/permissions': jsonResponse({ rules }),
    'GET /api/me/permissions': jsonResponse({ permissions: map }),
    'POST /api/projects/4/monitoring/audit/dashboard-visit': new Response(null, { status: 204 }),
  });
}

describe('app routes behind the section guard', () => {
  it('opens the Analytics home when allowed, and records the dashboard visit', async () => {
    const api = monitoring(ME('viewer'), [{ path: 'pages', allowed_roles: ['viewer'] }]);
    await renderRoute('/app/monitoring/4');
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Analytics'));
    await waitFor(() => expect(api.calls('POST /api/projects/4/monitoring/audit/dashboard-visit')).toHaveLength(1));
    expect(api.calls('GET /api/me/permissions')[0]?.query.get('project')).toBe('4');
    expect(api.calls('GET /api/me/permissions')[0]?.query.get('app')).toBe('monitoring');
  });

  it('unconfigured: no main role', async () => {
    const api = monitoring(ME(null));
    await renderRoute('/app/monitoring/4/pages');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe(ACCESS_DENIED.unconfigured.monitoring);
    expect(text()).toContain(ASSIGN_MAIN_ROLE_NOTE);
    expect(api.calls('POST /api/projects/4/monitoring/audit/dashboard-visit')).toHaveLength(0);
  });

  it('roleUnavailable: me-data failed, with its toast', async () => {
    monitoring(jsonResponse({ message: 'Server Error' }, 500));
    await renderRoute('/app/monitoring/4/pages');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe(ACCESS_DENIED.roleUnavailable.monitoring);
    await waitFor(() => expect(text()).toContain('Cannot determine your monitoring role yet.'));
  });

  it('forbidden: role not listed, with its toast', async () => {
    monitoring(ME('viewer'), [{ path: 'pages', allowed_roles: ['monitoring_admin'] }]);
    await renderRoute('/app/monitoring/4/pages');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe(ACCESS_DENIED.forbidden);
    expect(text()).toContain('Your role: Viewer');
    await waitFor(() => expect(text()).toContain('Access forbidden for role(s) viewer.'));
  });

  it('forbidden: locked section, with its toast', async () => {
    monitoring(ME('viewer'), [{ path: 'pages', allowed_roles: [] }]);
    await renderRoute('/app/monitoring/4/pages');
    await waitFor(() => expect(text()).toContain('Section "pages" locked – no roles assigned.'));
    expect(reason()).toBe(ACCESS_DENIED.forbidden);
  });

  it('forbidden: the per-user monitoring map says no', async () => {
    monitoring(ME('viewer'), [{ path: 'pages', allowed_roles: ['viewer'] }], { 'monitoring:pages': false });
    await renderRoute('/app/monitoring/4/pages');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe(ACCESS_DENIED.forbidden);
  });

  it('forbidden: a section without a rule, or a path that names no section (fails closed)', async () => {
    monitoring(ME('monitoring_admin', 'admin'), [{ path: 'pages', allowed_roles: ['monitoring_admin'] }], {
      'monitoring:introduction': true,
    });
    await renderRoute('/app/monitoring/4/introduction');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe(ACCESS_DENIED.forbidden);
    await renderRoute('/app/monitoring/4/no-such-section');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe(ACCESS_DENIED.forbidden);
    expect(text()).toContain('Your role: Monitoring admin');
  });

  it.each([
    ['opens for a role the documents rule lists', ['reader'], true],
    ['is denied to a role it does not', ['policy_admin'], false],
  ])('policy management search is guarded as the documents it reads: %s', async (_name, roles, opens) => {
    stubApi({
      ...portalRoutes(),
      'GET /api/projects/4/policy-management/me': jsonResponse({
        main_role: 'reader',
        project_role: 'simple',
        can_sign: false,
      }),
      'GET /api/projects/4/policy-management/permissions': jsonResponse({
        rules: [{ path: 'documents', allowed_roles: roles }],
      }),
      'GET /api/me/permissions': jsonResponse({ permissions: {} }),
    });
    await renderRoute('/app/policy_management/4/search');
    if (opens) {
      await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Search'));
      expect(panel()).toBeNull();
    } else {
      await waitFor(() => expect(panel()).not.toBeNull());
      expect(reason()).toBe(ACCESS_DENIED.forbidden);
    }
  });

  it('sends a simple member from a monitoring administration page to the monitoring home', async () => {
    monitoring(ME('viewer', 'simple'), [{ path: 'page-charts', allowed_roles: ['viewer'] }]);
    const { router } = await renderRoute('/app/monitoring/4/page-charts');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/monitoring/4'));
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Analytics'));
  });

  it('policy management: resolves a slug and checks the policy rules', async () => {
    const api = stubApi({
      ...portalRoutes(),
      'GET /api/projects/4/policy-management/me': jsonResponse({
        main_role: 'reader',
        project_role: 'simple',
        can_sign: false,
      }),
      'GET /api/projects/4/policy-management/permissions': jsonResponse({
        rules: [{ path: 'admin-dashboard', allowed_roles: ['policy_admin'] }],
      }),
    });
    await renderRoute('/app/policy_management/lakeside-4/admin-dashboard');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe(ACCESS_DENIED.forbidden);
    expect(api.calls('GET /api/me/permissions')).toHaveLength(0);
  });

  it('superadmin bypasses the checks', async () => {
    const api = stubApi({ ...portalRoutes({ role: 'superadmin' }) });
    await renderRoute('/app/policy_management/4/add-standards');
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Add standards'));
    expect(api.calls('GET /api/projects/4/policy-management/me')).toHaveLength(0);
  });

  it("'No project context.' for a project the user cannot see", async () => {
    stubApi({ ...portalRoutes(), 'GET /api/projects/99': jsonResponse({ message: 'Not found.' }, 404) });
    await renderRoute('/app/monitoring/99/pages');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe('Access denied.');
    await waitFor(() => expect(text()).toContain('No project context.'));
  });

  it('the Admin app is for project admins only', async () => {
    stubApi(portalRoutes({ isAdmin: false }));
    await renderRoute('/app/admin/4/admin-dashboard');
    await waitFor(() => expect(panel()).not.toBeNull());
    expect(reason()).toBe(ACCESS_DENIED.forbidden);
  });

  it('opens the Admin app for a project admin', async () => {
    stubApi({
      ...portalRoutes({ isAdmin: true }),
      'GET /api/projects/4/admin/dashboard': jsonResponse({
        members: [],
        pending_requests: [],
        unread_contact_messages: 0,
      }),
    });
    await renderRoute('/app/admin/4/admin-dashboard');
    await waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('Manage Users'));
  });
});

describe('monitoring dashboard audit at logout', () => {
  it.each([
    ['recorded', new Response(null, { status: 204 })],
    ['ignored when it fails', jsonResponse({ message: 'Server Error' }, 500)],
  ])('posts dashboard-logout before signing out (%s)', async (_name, auditAnswer) => {
    let signedIn = true;
    const order: string[] = [];
    const api = stubApi({
      ...portalRoutes(),
      'GET /api/auth/check': () =>
        jsonResponse(
          signedIn
            ? {
                authenticated: true,
                user: {
                  id: 7,
                  username: 'dana',
                  role: 'user',
                  two_factor_secret: false,
                  two_factor_confirmed_at: null,
                },
              }
            : { authenticated: false, user: null },
        ),
      'GET /api/projects/4/monitoring/me': ME('viewer'),
      'GET /api/projects/4/monitoring/permissions': jsonResponse({ rules: [] }),
      'GET /api/me/permissions': jsonResponse({ permissions: {} }),
      'POST /api/projects/4/monitoring/audit/dashboard-visit': new Response(null, { status: 204 }),
      'POST /api/projects/4/monitoring/audit/dashboard-logout': () => {
        order.push('audit');
        return auditAnswer.clone();
      },
      'POST /logout': () => {
        order.push('logout');
        signedIn = false;
        return new Response(null, { status: 204 });
      },
    });
    const { router } = await renderRoute('/app/monitoring/4');
    await waitFor(() => expect(api.calls('POST /api/projects/4/monitoring/audit/dashboard-visit')).toHaveLength(1));
    await act(() => router.navigate('/logout-confirm'));
    await waitFor(() => getControl('Cancel'));
    await click(getControl('Log out', document.querySelector('main')!));
    await waitFor(() => expect(router.state.location.pathname).toBe('/member-login'));
    expect(order).toEqual(['audit', 'logout']);
  });
});
