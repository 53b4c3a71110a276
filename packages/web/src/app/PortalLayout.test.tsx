import { beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '../test/api-stub';
import { jsonResponse } from '../test/fetch';
import { ALL_APPS, closedApp, portalRoutes, projectBody, usableApp } from '../test/portal-stub';
import { click, renderRoute, text, waitFor } from '../test/render';

const navLabels = () => [...document.querySelectorAll('nav[aria-label="Main"] li')].map((li) => li.textContent?.trim());

beforeEach(() => localStorage.clear());

describe('PortalLayout', () => {
  it('shows back button, project name and ID, user name and ID, and the nav of a simple member', async () => {
    stubApi(portalRoutes());
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(navLabels()).toContain('Policy'));
    const nav = text(document.querySelector('.portal-nav')!);
    expect(nav).toContain('Back');
    expect(nav).toContain('Lakeside Hospital');
    expect(nav).toContain('Project ID: 4');
    expect(nav).toContain('dana');
    expect(nav).toContain('User ID: 7');
    expect(navLabels()).toEqual([
      'Dashboard',
      'Policy',
      'Analytics',
      'Chart Review',
      'Standards',
      'Request Data',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
    expect(document.querySelector('[data-testid="facility-name"]')?.textContent).toBe('Lakeside Hospital Facility');
    expect(document.querySelector('button[aria-label="Open navigation"]')).not.toBeNull();
    expect(localStorage.getItem('portal.lastProjectId')).toBe('4');
  });

  it('adds Admin for a project admin (check-admin), with a label toggle kept in localStorage', async () => {
    localStorage.removeItem('portal.adminLabel');
    stubApi(portalRoutes({ isAdmin: true }));
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(navLabels()).toContain('Admin'));
    await click([...document.querySelectorAll<HTMLElement>('label')].find((l) => l.textContent === 'Navigator')!);
    await waitFor(() => expect(navLabels()).toContain('Navigator'));
    expect(localStorage.getItem('portal.adminLabel')).toBe('Navigator');
    localStorage.removeItem('portal.adminLabel');
  });

  it('shows the superadmin items and uses /super/projects/{id}', async () => {
    const api = stubApi(portalRoutes({ role: 'superadmin' }));
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(navLabels()).toContain('Policy'));
    expect(navLabels()).toEqual([
      'Home',
      'Dashboard',
      'Projects',
      'Users',
      'Policy',
      'Analytics',
      'Standards',
      'Admin',
      'My Account',
      'Log out',
    ]);
    expect(api.calls('GET /api/projects/4')).toHaveLength(0);
    expect(api.calls('GET /api/projects/4/check-admin')).toHaveLength(0);
    expect(api.calls('GET /api/projects/4/my-apps')).toHaveLength(0);
  });

  it('marks one item current: Projects on the projects console, not Home as well', async () => {
    stubApi(portalRoutes({ role: 'superadmin' }));
    await renderRoute('/superadmin/projects');
    await waitFor(() => expect(navLabels()).toContain('Projects'));
    const current = () =>
      [...document.querySelectorAll('nav[aria-label="Main"] a[data-active]')].map((link) => link.textContent?.trim());
    await waitFor(() => expect(current()).toEqual(['Projects']));
  });

  it('filters by active apps and shows no project items without a project', async () => {
    stubApi(portalRoutes({ project: projectBody(4, ['monitoring']) }));
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(navLabels()).toContain('Analytics'));
    expect(navLabels()).toEqual(['Dashboard', 'Analytics', 'Request Data', 'Contact Us', 'My Account', 'Log out']);
  });

  it('leaves out the links of the apps the user cannot open (my-apps), Request Data with Analytics', async () => {
    const api = stubApi(
      portalRoutes({
        myApps: [
          closedApp('monitoring', 'no_role'),
          usableApp('policy_management'),
          closedApp('chart_review', 'no_role'),
          closedApp('standards', 'no_standards_role'),
          closedApp('admin', 'admins_only'),
          closedApp('policy_generator', 'needs_policy_role'),
        ],
      }),
    );
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(navLabels()).toContain('Policy'));
    expect(navLabels()).toEqual(['Dashboard', 'Policy', 'Contact Us', 'My Account', 'Log out']);
    // The page and the navigation share one answer.
    await waitFor(() => expect(document.querySelector('[data-testid="apps-not-available"]')).not.toBeNull());
    expect(api.calls('GET /api/projects/4/my-apps')).toHaveLength(1);
  });

  it('a member who can open no app sees no app link; the nav never offers a denial', async () => {
    stubApi(
      portalRoutes({
        myApps: ALL_APPS.map((code) =>
          closedApp(code, code === 'admin' ? 'admins_only' : code === 'standards' ? 'no_standards_role' : 'no_role'),
        ),
      }),
    );
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(document.querySelector('[data-testid="apps-not-available"]')).not.toBeNull());
    expect(navLabels()).toEqual(['Dashboard', 'Contact Us', 'My Account', 'Log out']);
  });

  it('when my-apps fails, the nav falls back to the active apps as before', async () => {
    stubApi({ ...portalRoutes(), 'GET /api/projects/4/my-apps': jsonResponse({ message: 'Not found' }, 404) });
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(navLabels()).toContain('Policy'));
    expect(navLabels()).toEqual([
      'Dashboard',
      'Policy',
      'Analytics',
      'Chart Review',
      'Standards',
      'Request Data',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
  });

  it('falls back silently to no project when the lookup fails', async () => {
    localStorage.setItem('portal.lastProjectId', '9');
    const api = stubApi(portalRoutes({ project: null }));
    await renderRoute('/member/projects');
    await waitFor(() => expect(api.calls('GET /api/projects/9')).toHaveLength(1));
    await waitFor(() => expect(localStorage.getItem('portal.lastProjectId')).toBeNull());
    expect(navLabels()).toEqual(['Dashboard', 'Log out']);
    expect(text()).toContain('No project selected');
  });

  it('opens one sub-menu at a time and remembers which', async () => {
    localStorage.removeItem('portal.openSubmenu');
    const row = (id: number, number: string | null, title: string) => ({
      id,
      number,
      title,
      status: 'published',
      department_id: null,
      has_draft: false,
      working_state: null,
      next_review_on: null,
      updated_at: '2026-01-01T00:00:00Z',
    });
    stubApi({
      ...portalRoutes({ isAdmin: true, project: projectBody(4, ALL_APPS) }),
      'GET /api/projects/4/policy-management/documents': () =>
        jsonResponse([row(2, '1.10', 'Tenth'), row(1, '1', 'Chapter'), row(3, null, 'Unnumbered')]),
    });
    await renderRoute('/member/projects/4/apps');
    await waitFor(() => expect(navLabels()).toContain('Admin'));

    await click(document.querySelector<HTMLElement>('button[aria-label="Policy table of contents"]')!);
    expect(document.querySelector('[data-submenu]')?.getAttribute('data-submenu')).toBe('policy');
    // The project's numbered policies, by number; the unnumbered one is not in the tree.
    await waitFor(() => expect(text(document.querySelector('[data-submenu]')!)).toContain('Chapter'));
    expect(text(document.querySelector('[data-submenu]')!)).not.toContain('Unnumbered');
    expect(localStorage.getItem('portal.openSubmenu')).toBe('policy');

    await click(document.querySelector<HTMLElement>('button[aria-label="Analytics table of contents"]')!);
    expect(document.querySelectorAll('[data-submenu]')).toHaveLength(1);
    await waitFor(() => expect(text(document.querySelector('[data-submenu]')!)).toContain('No pages found.'));

    await click(document.querySelector<HTMLElement>('[data-nav="admin"]')!);
    expect(document.querySelectorAll('[data-submenu]')).toHaveLength(1);
    const admin = [...document.querySelectorAll('[data-submenu="admin"] a')].map((a) => a.textContent);
    expect(admin.slice(0, 4)).toEqual(['Manage Users', 'Request New User', 'Project Details', 'Contact Messages']);
    expect(localStorage.getItem('portal.openSubmenu')).toBe('admin');

    await click(document.querySelector<HTMLElement>('[data-nav="admin"]')!);
    expect(document.querySelector('[data-submenu]')).toBeNull();
    expect(localStorage.getItem('portal.openSubmenu')).toBe('none');
  });
});
