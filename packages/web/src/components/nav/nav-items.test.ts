import { describe, expect, it } from 'vitest';
import { adminLinks, type NavContext, navItems } from './nav-items';

const project = {
  id: 4,
  slug: 'lakeside',
  active_apps: ['monitoring', 'policy_management', 'chart_review', 'admin'] as const,
};

function labels(overrides: Partial<NavContext>) {
  return navItems({
    signedIn: true,
    superadmin: false,
    projectAdmin: false,
    project: { ...project, active_apps: [...project.active_apps] },
    adminLabel: 'Admin',
    ...overrides,
  }).map((item) => item.label);
}

describe('navItems (SPEC section 2 "Layout")', () => {
  it('superadmin: Home, Projects and Users; no Chart Review, Request Data or Contact Us', () => {
    expect(labels({ superadmin: true, projectAdmin: true })).toEqual([
      'Home',
      'Dashboard',
      'Projects',
      'Users',
      'Policy',
      'Analytics',
      'Admin',
      'My Account',
      'Log out',
    ]);
  });

  it('project admin: the member items plus Admin', () => {
    expect(labels({ projectAdmin: true })).toEqual([
      'Dashboard',
      'Policy',
      'Analytics',
      'Chart Review',
      'Request Data',
      'Admin',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
  });

  it('simple member: no Admin, no superadmin items', () => {
    expect(labels({})).toEqual([
      'Dashboard',
      'Policy',
      'Analytics',
      'Chart Review',
      'Request Data',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
  });

  it('signed out: Member Login only', () => {
    expect(labels({ signedIn: false })).toEqual(['Member Login']);
  });

  it('labels the admin item Navigator when chosen', () => {
    expect(labels({ projectAdmin: true, adminLabel: 'Navigator' })).toContain('Navigator');
  });

  it('filters by the project active apps', () => {
    const only = (active_apps: (typeof project.active_apps)[number][]) =>
      labels({ projectAdmin: true, project: { ...project, active_apps } });
    expect(only(['monitoring'])).toEqual([
      'Dashboard',
      'Analytics',
      'Request Data',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
    expect(only(['policy_management'])).toEqual(['Dashboard', 'Policy', 'Contact Us', 'My Account', 'Log out']);
    expect(only(['chart_review', 'admin'])).toEqual([
      'Dashboard',
      'Chart Review',
      'Admin',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
    expect(only([])).toEqual(['Dashboard', 'Contact Us', 'My Account', 'Log out']);
  });

  it('adds Standards after Chart Review for a project with the standards app, for members and superadmins', () => {
    const withStandards = { ...project, active_apps: [...project.active_apps, 'standards' as const] };
    expect(labels({ project: withStandards })).toEqual([
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
    expect(labels({ superadmin: true, projectAdmin: true, project: withStandards })).toContain('Standards');
    const items = navItems({
      signedIn: true,
      superadmin: false,
      projectAdmin: false,
      project: { ...withStandards, active_apps: ['standards'] },
      adminLabel: 'Admin',
    });
    expect(items.find((item) => item.label === 'Standards')?.to).toBe('/app/standards/4/compilence');
    expect(labels({})).not.toContain('Standards');
  });

  it('leaves out the links of active apps the user cannot open (issue 32); Request Data is monitoring', () => {
    expect(labels({ usableApps: ['policy_management'] })).toEqual([
      'Dashboard',
      'Policy',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
    expect(labels({ usableApps: ['monitoring', 'chart_review'] })).toEqual([
      'Dashboard',
      'Analytics',
      'Chart Review',
      'Request Data',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
    expect(labels({ usableApps: [] })).toEqual(['Dashboard', 'Contact Us', 'My Account', 'Log out']);
    // Admin needs the app to be usable and the check-admin answer; an app not active stays out whatever is usable.
    expect(labels({ projectAdmin: true, usableApps: ['admin', 'standards'] })).toEqual([
      'Dashboard',
      'Admin',
      'Contact Us',
      'My Account',
      'Log out',
    ]);
    // Not known (a superadmin, or the call failed): the active apps alone decide.
    expect(labels({ usableApps: undefined })).toEqual(labels({}));
  });

  it('shows project-scoped items only with a project', () => {
    expect(labels({ project: null, projectAdmin: true })).toEqual(['Dashboard', 'Log out']);
    expect(labels({ project: null, superadmin: true })).toEqual(['Home', 'Dashboard', 'Projects', 'Users', 'Log out']);
  });

  it('links to the SPEC routes of the project', () => {
    const items = navItems({
      signedIn: true,
      superadmin: false,
      projectAdmin: true,
      project: { ...project, active_apps: [...project.active_apps] },
      adminLabel: 'Admin',
    });
    expect(Object.fromEntries(items.map((item) => [item.label, item.to ?? null]))).toEqual({
      Dashboard: '/member/projects',
      Policy: '/app/policy_management/4/toc',
      Analytics: '/app/monitoring/4/pages',
      'Chart Review': '/app/chart-review/4/my',
      'Request Data': '/app/monitoring/4/request-form',
      Admin: null,
      'Contact Us': '/member/projects/4/contact-us',
      'My Account': '/member/projects/lakeside/myaccount',
      'Log out': '/logout-confirm',
    });
  });

  it('admin sub-menu: the four admin links, then links of the active modules', () => {
    expect(adminLinks({ ...project, active_apps: ['admin', 'monitoring'] }).map((link) => link.label)).toEqual([
      'Manage Users',
      'Request New User',
      'Project Details',
      'Contact Messages',
      'Monitoring Users',
    ]);
  });

  it('admin sub-menu: no link into a module the admin has no role in', () => {
    const active = { ...project, active_apps: ['admin', 'monitoring', 'chart_review'] as const };
    expect(
      adminLinks({ ...active, active_apps: [...active.active_apps] }, ['admin', 'chart_review']).map((l) => l.label),
    ).toEqual(['Manage Users', 'Request New User', 'Project Details', 'Contact Messages', 'Chart Review Settings']);
  });
});
