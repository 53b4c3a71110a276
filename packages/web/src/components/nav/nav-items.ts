import type { AppCode } from '@portal/shared';

export type SubmenuKey = 'admin' | 'policy' | 'analytics';
export const SUBMENU_KEYS = ['none', 'admin', 'policy', 'analytics'] as const;
export const ADMIN_LABELS = ['Admin', 'Navigator'] as const;
export type AdminLabel = (typeof ADMIN_LABELS)[number];

export interface NavItem {
  key: string;
  label: string;
  /** Where the item goes; an item that only opens its sub-menu (Admin) has none. */
  to?: string;
  submenu?: SubmenuKey;
}

export interface NavProject {
  id: number;
  slug: string;
  active_apps: readonly AppCode[];
}

export interface NavContext {
  signedIn: boolean;
  superadmin: boolean;
  /** GET /api/projects/{id}/check-admin answered true (or the user is a superadmin). */
  projectAdmin: boolean;
  project: NavProject | null;
  adminLabel: AdminLabel;
  /**
   * The project's apps the user can open (GET /api/projects/{id}/my-apps, issue 32): the links of the others are left
   * out. Absent: not known (a superadmin, who opens every app, or the call failed), only the active apps filter.
   */
  usableApps?: readonly AppCode[] | undefined;
}

/**
 * The navigation of SPEC section 2 "Layout", in order: Home (superadmin), Dashboard, Member Login (signed out),
 * Projects and Users (superadmin), Policy, Analytics, Chart Review, Standards (ours: the SPEC's list predates the
 * app), Request Data, Admin/Navigator, Contact Us
 * (non-superadmin), My Account, Log out. Project-scoped items need a project and are filtered by its active apps, and
 * app links (Policy, Analytics, Chart Review, Standards, Request Data, which is monitoring's) by the apps the user can
 * open.
 */
export function navItems(ctx: NavContext): NavItem[] {
  if (!ctx.signedIn) return [{ key: 'login', label: 'Member Login', to: '/member-login' }];
  const items: NavItem[] = [];
  const { project, superadmin } = ctx;
  const has = (app: AppCode) =>
    project?.active_apps.includes(app) === true && (ctx.usableApps === undefined || ctx.usableApps.includes(app));
  if (superadmin) items.push({ key: 'home', label: 'Home', to: '/superadmin' });
  items.push({ key: 'dashboard', label: 'Dashboard', to: '/member/projects' });
  if (superadmin) {
    items.push({ key: 'projects', label: 'Projects', to: '/superadmin/projects' });
    items.push({ key: 'users', label: 'Users', to: '/superadmin/users' });
  }
  if (project) {
    const id = project.id;
    if (has('policy_management')) {
      items.push({ key: 'policy', label: 'Policy', to: `/app/policy_management/${id}/toc`, submenu: 'policy' });
    }
    if (has('monitoring')) {
      items.push({ key: 'analytics', label: 'Analytics', to: `/app/monitoring/${id}/pages`, submenu: 'analytics' });
    }
    if (!superadmin && has('chart_review')) {
      items.push({ key: 'chart-review', label: 'Chart Review', to: `/app/chart-review/${id}/my` });
    }
    if (has('standards')) {
      items.push({ key: 'standards', label: 'Standards', to: `/app/standards/${id}/compilence` });
    }
    if (!superadmin && has('monitoring')) {
      items.push({ key: 'request-data', label: 'Request Data', to: `/app/monitoring/${id}/request-form` });
    }
    if ((superadmin || ctx.projectAdmin) && has('admin')) {
      items.push({ key: 'admin', label: ctx.adminLabel, submenu: 'admin' });
    }
    if (!superadmin) items.push({ key: 'contact', label: 'Contact Us', to: `/member/projects/${id}/contact-us` });
    items.push({ key: 'account', label: 'My Account', to: `/member/projects/${project.slug}/myaccount` });
  }
  items.push({ key: 'logout', label: 'Log out', to: '/logout-confirm' });
  return items;
}

export interface SubmenuLink {
  label: string;
  to: string;
}

/**
 * The Admin sub-menu: Manage Users, Request New User, Project Details, Contact Messages, then the links of the active
 * modules the admin can open (`usableApps`, as in navItems: absent when not known).
 */
export function adminLinks(project: NavProject, usableApps?: readonly AppCode[]): SubmenuLink[] {
  const id = project.id;
  const has = (app: AppCode) =>
    project.active_apps.includes(app) && (usableApps === undefined || usableApps.includes(app));
  const links: SubmenuLink[] = [
    { label: 'Manage Users', to: `/app/admin/${id}/admin-dashboard` },
    { label: 'Request New User', to: `/app/admin/${id}/new-user-request` },
    { label: 'Project Details', to: `/app/admin/${id}/project-details-edit` },
    { label: 'Contact Messages', to: `/member/projects/${id}/contact-us-messages` },
  ];
  if (has('policy_management'))
    links.push({ label: 'Policy Admin', to: `/app/policy_management/${id}/admin-dashboard` });
  if (has('monitoring')) links.push({ label: 'Monitoring Users', to: `/app/monitoring/${id}/manage-users` });
  if (has('standards')) links.push({ label: 'Standards Users', to: `/app/standards/${id}/manage-users` });
  if (has('chart_review')) links.push({ label: 'Chart Review Settings', to: `/app/chart-review/${id}/settings` });
  return links;
}
