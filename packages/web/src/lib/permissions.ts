import {
  type AccessReason,
  isAllowed,
  isPermissionSection,
  type MonitoringSection,
  monitoringMeSchema,
  myPermissionsSchema,
  PERMISSION_CACHE_VERSION,
  type PermissionApp,
  type PermissionRule,
  type PermissionSection,
  permissionKey,
  permissionRulesSchema,
  policyMeSchema,
} from '@portal/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from './api';
import { useCurrentProject } from './project/project-context';
import { authCheckQueryOptions, useSession } from './session';

/**
 * The web side of the permission engine (SPEC section 6, docs/permissions.md). The server enforces the same rules
 * on every API route; this only decides what a screen shows. Me-data, rules and the per-user map are cached per
 * project under PERMISSION_CACHE_VERSION and dropped at logout.
 */

/** Monitoring administration pages a simple project member is sent away from (SPEC section 6). */
export const MONITORING_ADMIN_SECTIONS = [
  'page-charts',
  'add-page-chart',
  'edit-page-chart',
  'csv-import',
  'formula-builder',
  'numbering',
  'page-numbering',
  'create-page',
  'page-levels',
  'create-user',
  'assign-users',
  'manage-users',
  'assign-main-role',
  'main-role-dashboard',
  'page-role-manager',
] as const satisfies readonly MonitoringSection[];

/** What a route of an app opens: one of its sections, or '' for the app's home (open to every main role). */
export type RouteSection<A extends PermissionApp = PermissionApp> = PermissionSection<A> | '';

/** Route segments whose screen belongs to another section: it shows what that section's calls read. */
const SEGMENT_SECTIONS: { [A in PermissionApp]: Readonly<Record<string, PermissionSection<A>>> } = {
  monitoring: {},
  // Search reads the documents (GET .../search is a documents call); guest reading is a project setting of the
  // numbering section's administrators (GET/PUT .../guest-reading are numbering calls).
  policy_management: { search: 'documents', 'guest-reading': 'numbering' },
  chart_review: {},
};

/**
 * The section a route segment of an app opens (the first path segment after the project, compared in lower case):
 * '' for the app's home, null for a segment that names no section, which the guard denies (a path without a rule
 * is denied, docs/permissions.md).
 */
export function sectionOfSegment<A extends PermissionApp>(app: A, segment: string): RouteSection<A> | null {
  const path = segment.toLowerCase();
  if (path === '') return '';
  if (isPermissionSection(app, path)) return path;
  const aliases: Readonly<Record<string, PermissionSection<A>>> = SEGMENT_SECTIONS[app];
  return Object.hasOwn(aliases, path) ? (aliases[path] ?? null) : null;
}

const APP_LABEL: Record<PermissionApp, string> = {
  monitoring: 'monitoring',
  policy_management: 'policy management',
  chart_review: 'chart review',
};
const API_SEGMENT: Record<PermissionApp, string> = {
  monitoring: 'monitoring',
  policy_management: 'policy-management',
  chart_review: 'chart-review',
};

/** Toasts of SPEC section 8. */
export const ACCESS_TOASTS = {
  locked: (segment: string) => `Section "${segment}" locked – no roles assigned.`,
  roleUnknown: (app: PermissionApp) => `Cannot determine your ${APP_LABEL[app]} role yet.`,
  forbiddenRoles: (roles: readonly string[]) => `Access forbidden for role(s) ${roles.join(', ')}.`,
  noProject: 'No project context.',
} as const;

export interface PermissionMe {
  main_role: string | null;
  project_role: 'admin' | 'simple' | null;
}

const root = (projectId: string) => ['permissions', PERMISSION_CACHE_VERSION, projectId] as const;

export function getPermissionMe(app: PermissionApp, projectId: string, signal?: AbortSignal): Promise<PermissionMe> {
  const path = `/api/projects/${projectId}/${API_SEGMENT[app]}/me`;
  // Policy management adds can_sign; monitoring and chart review answer the same shape.
  return app === 'policy_management'
    ? apiFetch(path, { signal, schema: policyMeSchema })
    : apiFetch(path, { signal, schema: monitoringMeSchema });
}

export async function getPermissionRules(
  app: PermissionApp,
  projectId: string,
  signal?: AbortSignal,
): Promise<PermissionRule[]> {
  const path = `/api/projects/${projectId}/${API_SEGMENT[app]}/permissions`;
  return (await apiFetch(path, { signal, schema: permissionRulesSchema })).rules;
}

export async function getMyPermissions(
  projectId: string,
  app: PermissionApp,
  signal?: AbortSignal,
): Promise<Record<string, boolean>> {
  const query = new URLSearchParams({ project: projectId, app });
  return (await apiFetch(`/api/me/permissions?${query}`, { signal, schema: myPermissionsSchema })).permissions;
}

export function permissionMeQueryOptions(app: PermissionApp, projectId: string) {
  return queryOptions({
    queryKey: [...root(projectId), app, 'me'],
    queryFn: ({ signal }) => getPermissionMe(app, projectId, signal),
    staleTime: 5 * 60_000,
  });
}

export function permissionRulesQueryOptions(app: PermissionApp, projectId: string) {
  return queryOptions({
    queryKey: [...root(projectId), app, 'rules'],
    queryFn: ({ signal }) => getPermissionRules(app, projectId, signal),
    staleTime: 5 * 60_000,
  });
}

export function myPermissionsQueryOptions(app: PermissionApp, projectId: string) {
  return queryOptions({
    queryKey: [...root(projectId), app, 'map'],
    queryFn: ({ signal }) => getMyPermissions(projectId, app, signal),
    staleTime: 5 * 60_000,
  });
}

export type SectionAccess =
  | 'loading'
  | 'allowed'
  | { redirect: string }
  | {
      reason: AccessReason;
      /** The user's role in the app, shown on the denial panel. */
      role: string | null;
      /** The SPEC section 8 toast for this denial, if it has one. */
      toast: string | null;
    };

/** A failed load: 'forbidden' for a 403 (SPEC section 8), anything else is a role we cannot determine. */
export type LoadState<T> = { data: T } | { error: unknown } | 'loading';

export interface AccessInput<A extends PermissionApp = PermissionApp> {
  app: A;
  /** The section the route opens ('' for the app's home; null for a path that names no section: denied). */
  section: RouteSection<A> | null;
  projectId: string;
  superadmin: boolean;
  me: LoadState<PermissionMe>;
  rules: LoadState<PermissionRule[]>;
  /** Monitoring only: the per-user map keyed monitoring:{section}. */
  userMap?: LoadState<Record<string, boolean>>;
}

const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/** The whole decision, as one pure function (SPEC section 6). */
export function decideAccess<A extends PermissionApp>(input: AccessInput<A>): SectionAccess {
  const { app, section, projectId, superadmin, me, rules, userMap } = input;
  if (superadmin) return 'allowed';
  if (me === 'loading') return 'loading';
  if ('error' in me) {
    return isForbidden(me.error)
      ? { reason: 'forbidden', role: null, toast: null }
      : { reason: 'roleUnavailable', role: null, toast: ACCESS_TOASTS.roleUnknown(app) };
  }
  const { main_role, project_role } = me.data;
  if (
    app === 'monitoring' &&
    project_role === 'simple' &&
    (MONITORING_ADMIN_SECTIONS as readonly (string | null)[]).includes(section)
  ) {
    return { redirect: `/app/monitoring/${projectId}` };
  }
  if (!main_role) return { reason: 'unconfigured', role: null, toast: null };

  const loads = app === 'monitoring' ? [rules, userMap ?? 'loading'] : [rules];
  for (const load of loads) {
    if (load === 'loading') return 'loading';
    if ('error' in load) {
      return isForbidden(load.error)
        ? { reason: 'forbidden', role: main_role, toast: ACCESS_TOASTS.forbiddenRoles([main_role]) }
        : { reason: 'roleUnavailable', role: main_role, toast: ACCESS_TOASTS.roleUnknown(app) };
    }
  }
  const ruleList = (rules as { data: PermissionRule[] }).data;
  if (section === '') return 'allowed';
  const rule = section === null ? undefined : ruleList.find((r) => r.path.toLowerCase() === section);
  if (section !== null && rule && !rule.allowed_roles?.length) {
    return { reason: 'forbidden', role: main_role, toast: ACCESS_TOASTS.locked(section) };
  }
  // No section, or a section without a rule: denied (isAllowed fails closed).
  if (section === null || !isAllowed(ruleList, section, [main_role])) {
    return { reason: 'forbidden', role: main_role, toast: ACCESS_TOASTS.forbiddenRoles([main_role]) };
  }
  if (app === 'monitoring') {
    const map = (userMap as { data: Record<string, boolean> }).data;
    if (map[permissionKey(app, section)] === false) {
      return { reason: 'forbidden', role: main_role, toast: ACCESS_TOASTS.forbiddenRoles([main_role]) };
    }
  }
  return 'allowed';
}

function loadState<T>(query: { data: T | undefined; error: unknown; isError: boolean }): LoadState<T> {
  if (query.isError) return { error: query.error };
  return query.data === undefined ? 'loading' : { data: query.data };
}

/**
 * What `useSectionAccess` waits for in the project of an address, asked for as soon as the session is known rather
 * than once the frame has rendered (routes.tsx preloadScreensFor): the same queries, on the same conditions.
 */
export function prefetchSectionAccess(app: PermissionApp, projectId: string, queryClient: QueryClient): void {
  queryClient
    .ensureQueryData(authCheckQueryOptions())
    .then((check) => {
      if (!check.authenticated || !check.user || check.user.role === 'superadmin') return;
      void queryClient.prefetchQuery(permissionMeQueryOptions(app, projectId));
      void queryClient.prefetchQuery(permissionRulesQueryOptions(app, projectId));
      if (app === 'monitoring') void queryClient.prefetchQuery(myPermissionsQueryOptions(app, projectId));
    })
    .catch(() => undefined);
}

/**
 * May the signed-in user open `section` of `app` in the current project? 'loading' until the answer is known;
 * { redirect } for a simple member on a monitoring administration page; { reason } when denied (also for a null
 * section: a path that names none). Without a project the caller shows 'No project context.'.
 */
export function useSectionAccess<A extends PermissionApp>(app: A, section: RouteSection<A> | null): SectionAccess {
  const session = useSession();
  const superadmin = session.status === 'signed-in' && session.user.role === 'superadmin';
  const { projectId } = useCurrentProject();
  const id = projectId ?? '0';
  const enabled = projectId !== null && !superadmin;
  const me = useQuery({ ...permissionMeQueryOptions(app, id), enabled });
  const rules = useQuery({ ...permissionRulesQueryOptions(app, id), enabled });
  const map = useQuery({ ...myPermissionsQueryOptions(app, id), enabled: enabled && app === 'monitoring' });
  if (superadmin) return 'allowed';
  if (!projectId) return 'loading';
  return decideAccess({
    app,
    section,
    projectId,
    superadmin,
    me: loadState(me),
    rules: loadState(rules),
    userMap: app === 'monitoring' ? loadState(map) : undefined,
  });
}
