import { PERMISSION_SECTIONS } from '@portal/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { lookups as pgLookups, profile as pgProfile } from '../features/policy-generator/components/pg-test-fixtures';
import { stubApi } from '../test/api-stub';
import { jsonResponse } from '../test/fetch';
import { portalRoutes, projectBody } from '../test/portal-stub';
import { getControl, renderRoute, text, waitFor } from '../test/render';

beforeEach(() => localStorage.clear());

const SUPERADMIN_PATHS = [
  '/superadmin',
  '/superadmin/projects',
  '/superadmin/projects/4',
  '/superadmin/terms_and_conditions',
  '/superadmin/terms_and_conditions/history',
  '/superadmin/email-logs',
  '/superadmin/users',
  '/superadmin/users/12',
  '/superadmin/new-user-requests',
  '/superadmin/identity-providers',
  '/superadmin/identity-providers/5/mappings',
  '/superadmin/monitoring-permissions',
  '/superadmin/chart-review-permissions',
  '/superadmin/policy-management-permissions',
  '/dev/editor',
];

const h1 = () => document.querySelector('h1')?.textContent;

describe('superadmin group', () => {
  it.each(SUPERADMIN_PATHS)('sends a member from %s to /not-superadmin', async (path) => {
    stubApi(portalRoutes());
    const { router } = await renderRoute(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/not-superadmin'));
    // The page is a chunk loaded on first use (routes.tsx): it renders a moment after the redirect.
    await waitFor(() => expect(h1()).toBe('Superadmins only'));
    expect(getControl('Back to Dashboard').getAttribute('href')).toBe('/member/projects');
  });

  it.each(SUPERADMIN_PATHS)('opens %s for a superadmin', async (path) => {
    stubApi({ ...portalRoutes({ role: 'superadmin' }) });
    const { router } = await renderRoute(path);
    await waitFor(() => expect(h1()).toBeTruthy());
    expect(router.state.location.pathname).toBe(path);
    expect(h1()).not.toBe('Page not found');
  });

  it('lists every project on /superadmin/projects (GET /super/projects)', async () => {
    stubApi({
      ...portalRoutes({ role: 'superadmin', project: null }),
      'GET /super/projects': jsonResponse({
        projects: [projectBody(9, ['monitoring'], 'Hilltop'), projectBody(4)].map((project) => ({
          ...project,
          member_count: 2,
          created_at: '2026-01-05T10:00:00Z',
        })),
        total: 2,
        page: 1,
        page_size: 25,
      }),
    });
    await renderRoute('/superadmin/projects');
    await waitFor(() => expect(document.querySelectorAll('tbody tr')).toHaveLength(2));
    expect([...document.querySelectorAll('tbody tr td:first-child a')].map((a) => a.getAttribute('href'))).toEqual([
      '/superadmin/projects/9',
      '/superadmin/projects/4',
    ]);
  });
});

describe('logged-in and app routes', () => {
  it.each([
    ['/member/projects/4/apps', 'Lakeside Hospital'],
    ['/member/projects/lakeside-4/myaccount', 'My Account'],
    ['/member/projects/4/contact-us', 'Contact Us'],
    ['/member/projects/4/contact-us-messages', 'Contact Messages'],
    ['/app/policy_generator', 'Policy Generator'],
    ['/not-superadmin', 'Superadmins only'],
  ])('%s shows %s', async (path, title) => {
    stubApi(portalRoutes());
    await renderRoute(path);
    await waitFor(() => expect(h1()).toBe(title));
  });

  it('opens the standards app on its compliance page, and the member overview on /{projectId}/standards', async () => {
    stubApi({
      ...portalRoutes(),
      'GET /api/projects/4/standards/me': jsonResponse({
        role: 'viewer',
        abilities: {
          create: false,
          manage_users: false,
          assign: false,
          import_frameworks: false,
          load_editions: false,
        },
      }),
      'GET /api/projects/4/standards/assessments': jsonResponse({ assessments: [] }),
      'GET /api/projects/4/standards/my': jsonResponse({
        role: 'viewer',
        elements: [],
        counts: { owned: 0, overdue: 0, due_30: 0, open: 0 },
      }),
    });
    const { router } = await renderRoute('/app/standards/4');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/standards/4/compilence'));
    await waitFor(() => expect(h1()).toBe('Compliance'));
    expect(text()).toContain('No assessments yet.');

    await renderRoute('/4/standards');
    await waitFor(() =>
      expect([...document.querySelectorAll('h1')].map((item) => item.textContent)).toContain('My standards'),
    );
  });

  it('shows the access denial of the standards app to a member without a standards role', async () => {
    stubApi({
      ...portalRoutes(),
      'GET /api/projects/4/standards/me': jsonResponse(
        { message: 'You do not have a standards role in this project.' },
        403,
      ),
    });
    await renderRoute('/app/standards/4/compilence');
    await waitFor(() =>
      expect(document.querySelector('[data-testid="access-denied-reason"]')?.textContent).toBe(
        'You do not have a standards role in this project.',
      ),
    );
  });

  it.each([
    '/member/projects/abc/apps',
    '/member/projects/12345678901/apps',
    '/app/monitoring/bad$slug/pages',
    '/app/admin/x1/admin-dashboard',
    '/app/standards/abc/create',
    '/abc/standards',
    '/superadmin/projects/abc',
    '/app/unknown-app',
    '/no/such/page',
  ])('%s shows the not-found page', async (path) => {
    stubApi({ ...portalRoutes({ role: 'superadmin' }) });
    await renderRoute(path);
    await waitFor(() => expect(h1()).toBe('Page not found'));
  });

  it('a monitoring page without a project goes to the page in its project, or shows the not-found page', async () => {
    stubApi({ ...portalRoutes(), 'GET /api/monitoring/pages/12/project': jsonResponse({ project_id: 4 }) });
    const { router } = await renderRoute('/app/monitoring/pages/page/12');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/monitoring/4/pages/page/12'));
  });

  it('a monitoring page the user may not see shows the not-found page', async () => {
    stubApi(portalRoutes());
    await renderRoute('/app/monitoring/pages/page/13');
    await waitFor(() => expect(h1()).toBe('Page not found'));
  });

  it('opens the policy generator in the remembered project, on its sections too', async () => {
    localStorage.setItem('portal.lastProjectId', '4');
    stubApi({
      ...portalRoutes(),
      'GET /api/projects/4/policy-generator/lookups': jsonResponse(pgLookups()),
      'GET /api/projects/4/policy-generator/profile': jsonResponse(pgProfile()),
    });
    const { router } = await renderRoute('/app/policy_generator/profile');
    await waitFor(() => expect(document.querySelector('h2')?.textContent).toBe('Facility profile'));
    expect(h1()).toBe('Policy Generator');
    expect(router.state.location.pathname).toBe('/app/policy_generator/profile');
  });

  it('the apps page lists the apps the user may open, without Admin for a member', async () => {
    stubApi(portalRoutes());
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(document.querySelectorAll('li[data-app]').length).toBeGreaterThan(0));
    expect([...document.querySelectorAll('li[data-app] a')].map((a) => a.getAttribute('href'))).toEqual([
      '/app/monitoring/4',
      '/app/policy_management/4/toc',
      '/app/chart-review/4/my',
      '/app/standards/4/compilence',
      '/app/policy_generator',
    ]);
  });

  it('the apps page includes Admin for a project admin', async () => {
    stubApi(portalRoutes({ isAdmin: true }));
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(document.querySelector('li[data-app="admin"]')).not.toBeNull());
  });

  it('/app/{code} opens that app for the remembered project', async () => {
    localStorage.setItem('portal.lastProjectId', '4');
    stubApi(portalRoutes());
    const { router } = await renderRoute('/app/chart-review');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/chart-review/4/my'));
  });

  it('a path naming an unknown project never falls back to the remembered one', async () => {
    localStorage.setItem('portal.lastProjectId', '4');
    stubApi({
      ...portalRoutes(),
      'GET /api/projects/4/policy-management/me': jsonResponse({
        main_role: 'reader',
        project_role: 'simple',
        can_sign: false,
      }),
      'GET /api/projects/4/policy-management/permissions': jsonResponse({ rules: [] }),
    });
    await renderRoute('/app/policy_management/no-such-project/toc');
    await waitFor(() =>
      expect(document.querySelector('[data-testid="access-denied-reason"]')?.textContent).toBe('Access denied.'),
    );
    await waitFor(() => expect(text()).toContain('No project context.'));
  });

  it('chart review opens for a member with a chart review role and guards its sections by the permission rules', async () => {
    stubApi({
      ...portalRoutes(),
      'GET /api/projects/4/chart-review/me': jsonResponse({
        main_role: 'reviewer',
        project_role: 'simple',
        is_superadmin: false,
      }),
      'GET /api/projects/4/chart-review/permissions': jsonResponse({
        rules: [
          { path: 'my', allowed_roles: ['chart_review_admin', 'program_lead', 'reviewer'] },
          { path: 'settings', allowed_roles: ['chart_review_admin'] },
        ],
      }),
      'GET /api/me/permissions': jsonResponse({ permissions: { 'chart_review:my': true } }),
    });
    await renderRoute('/app/chart-review/4/my');
    await waitFor(() => expect(h1()).toBe('My reviews'));

    await renderRoute('/app/chart-review/4/settings');
    await waitFor(() => expect(document.querySelector('[data-testid="access-denied-reason"]')).not.toBeNull());
  });

  it("each app's people screens (features/people) open inside the app, below its header", async () => {
    const apps = [
      {
        code: 'policy_management' as const,
        api: '/api/projects/4/policy-management',
        me: { main_role: 'policy_admin', project_role: 'admin', can_sign: true },
        nav: 'Policy management',
        permissions: { 'policy_management:toc': true, 'policy_management:policy-users': true },
        screens: [
          ['/app/policy_management/4/policy-users', 'Policy users'],
          ['/app/policy_management/4/assign-users', 'Policy users'],
          ['/app/policy_management/4/manage-users', 'Policy users'],
          ['/app/policy_management/4/assign-main-role', 'Assign main roles'],
          ['/app/policy_management/4/edit-main-role', 'Main roles'],
          ['/app/policy_management/4/create-project-user', 'Request a new user'],
        ],
      },
      {
        code: 'monitoring' as const,
        api: '/api/projects/4/monitoring',
        me: { main_role: 'monitoring_admin', project_role: 'admin', is_superadmin: false },
        nav: 'Analytics',
        permissions: { 'monitoring:pages': true, 'monitoring:manage-users': true },
        screens: [
          ['/app/monitoring/4/assign-users', 'Monitoring users'],
          ['/app/monitoring/4/manage-users', 'Monitoring users'],
          ['/app/monitoring/4/assign-main-role', 'Main roles'],
          ['/app/monitoring/4/create-user', 'Request a new user'],
        ],
      },
    ];
    for (const app of apps) {
      stubApi({
        ...portalRoutes(),
        [`GET ${app.api}/me`]: jsonResponse(app.me),
        // Sections fail closed (decision record 020): every section of the app allows the role.
        [`GET ${app.api}/permissions`]: jsonResponse({
          rules: PERMISSION_SECTIONS[app.code].map((path) => ({ path, allowed_roles: [app.me.main_role] })),
        }),
        'GET /api/me/permissions': jsonResponse({ permissions: app.permissions }),
      });
      for (const [path, title] of app.screens) {
        document.body.innerHTML = '';
        await renderRoute(path!);
        await waitFor(() => expect(h1()).toBe(title));
        await waitFor(() => expect(document.querySelector(`nav[aria-label="${app.nav}"]`)).not.toBeNull());
      }
    }
  });

  it("/app/{code} without a project says 'No project context.'", async () => {
    stubApi(portalRoutes({ project: null }));
    await renderRoute('/app/standards');
    await waitFor(() => expect(h1()).toBe('Standards'));
    await waitFor(() => expect(text()).toContain('No project context.'));
  });
});
