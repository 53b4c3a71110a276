import { type AppCode, appsUnavailableReason, type MyApp } from '@portal/shared';
import { CONFIG_ALTCHA, type StubHandler, signedInCheck } from './api-stub';
import { jsonResponse } from './fetch';

export const ALL_APPS: AppCode[] = [
  'monitoring',
  'policy_management',
  'chart_review',
  'standards',
  'admin',
  'policy_generator',
];

export function projectBody(id = 4, activeApps: AppCode[] = ALL_APPS, name = 'Lakeside Hospital') {
  return {
    id,
    name,
    slug: `lakeside-${id}`,
    active_apps: activeApps,
    facility_name: `${name} Facility`,
    is_active: true,
    project_role: 'simple',
  };
}

interface PortalOptions {
  role?: 'user' | 'superadmin';
  project?: ReturnType<typeof projectBody> | null;
  isAdmin?: boolean;
  /** GET /api/projects/{id}/my-apps; by default every active app is usable (Admin only for an admin). */
  myApps?: MyApp[];
}

/** A my-apps entry the user can open. */
export const usableApp = (code: AppCode): MyApp => ({ code, usable: true, reason: null, cause: null });

/** A my-apps entry the user cannot open, with the server's sentence. */
export const closedApp = (code: AppCode, cause: NonNullable<MyApp['cause']>): MyApp => ({
  code,
  usable: false,
  reason: appsUnavailableReason(cause, [code]),
  cause,
});

/**
 * The calls every signed-in screen makes: session, config, the project (member or superadmin path), its
 * check-admin, active apps and my apps, and an empty notification list. Spread into stubApi and override per test.
 */
export function portalRoutes({ role = 'user', project = projectBody(), isAdmin = false, myApps }: PortalOptions = {}) {
  const routes: Record<string, StubHandler | StubHandler[]> = {
    'GET /api/auth/check': jsonResponse(signedInCheck(role, role === 'superadmin' ? 'root' : 'dana')),
    'GET /api/public/config': jsonResponse(CONFIG_ALTCHA),
    'GET /api/member/projects': jsonResponse({ projects: project ? [project] : [] }),
    'GET /super/projects': jsonResponse({ projects: project ? [project] : [] }),
    'GET /super/notifications/': jsonResponse({ notifications: [] }),
    // The bell where the path names no project (the landing page): the member's notifications across projects.
    'GET /api/notifications/': jsonResponse({ notifications: [] }),
  };
  if (project) {
    const base = role === 'superadmin' ? '/super/projects' : '/api/projects';
    routes[`GET ${base}/${project.id}`] = jsonResponse(project);
    routes[`GET /api/projects/${project.id}/check-admin`] = jsonResponse({ is_admin: isAdmin });
    routes[`GET /api/projects/${project.id}/active-apps`] = jsonResponse(project.active_apps);
    routes[`GET /api/projects/${project.id}/my-apps`] = jsonResponse({
      apps:
        myApps ??
        project.active_apps.map((code) =>
          code === 'admin' && !isAdmin ? closedApp(code, 'admins_only') : usableApp(code),
        ),
    });
    routes[`GET /api/projects/${project.id}/notifications/`] = jsonResponse({ notifications: [] });
  }
  return routes;
}
