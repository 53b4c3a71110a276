import {
  ACCESS_DENIED,
  isAllowed,
  MAIN_ROLES,
  type PermissionApp,
  type PermissionRule,
  type PermissionSection,
} from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { projects } from '../db/schema/index.js';
import { AppError, notFound } from '../lib/errors.js';
import { mainRoleOf, rulesFor, withDefaultRules } from '../modules/permissions/permissions.service.js';
import type { ProjectContext, SessionUser } from '../plugins/session.js';
import { contextFor, type ProjectAccess, projectAccess } from './projects.js';

/**
 * Access to an app of a project whose sections are guarded by main roles and the permission matrix (monitoring,
 * policy management, chart review; docs/permissions.md). Every call names the section it belongs to, the same
 * sections the web guards (a PermissionSection of the app: a name that is none does not compile, and a path without
 * a rule is denied), so a rule the superadmin edits applies to the screen and to its calls alike:
 * - not a member of the project, or the app is off: 404 (nothing about the project is revealed);
 * - a member without a main role in the app: 403 "unconfigured";
 * - a role the section's rule does not list: 403 "forbidden".
 * Superadmins pass every section check.
 */
export interface AppActor {
  userId: number;
  projectId: number;
  isSuperadmin: boolean;
  /** The main role in the app; null for a superadmin who has none. */
  role: string | null;
  rules: PermissionRule[];
  ip: string | null;
  requestId: string | null;
  /** The session's read of the project, when this is a read of its address (see Viewer). */
  context?: ProjectContext | undefined;
}

const SWITCHED_OFF: Record<PermissionApp, string> = {
  monitoring: 'Monitoring is not switched on for this project.',
  policy_management: 'Policy management is not switched on for this project.',
  chart_review: 'Chart review is not switched on for this project.',
};

export async function appAccess<A extends PermissionApp>(
  db: DbOrTx,
  app: A,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  section: NoInfer<PermissionSection<A>>,
): Promise<AppActor> {
  const access = await projectAccess(db, user, projectId);
  if (!access.project.activeApps.includes(app)) throw notFound(SWITCHED_OFF[app]);
  // A read of this project's address: the session read the roles and rules with it (plugins/session.ts).
  const context = contextFor(user, access.project.id);
  const role = await mainRoleIn(db, access, user, app);
  if (!access.isSuperadmin && !role) throw new AppError('FORBIDDEN', ACCESS_DENIED.unconfigured[app]);
  const actor: AppActor = {
    userId: user.id,
    projectId: access.project.id,
    isSuperadmin: access.isSuperadmin,
    role,
    rules: context ? withDefaultRules(app, context.rules[app] ?? []) : await rulesFor(db, access.project.id, app),
    ip: request.ip,
    requestId: request.id,
    context,
  };
  if (!mayUseSection(actor, section)) throw new AppError('FORBIDDEN', ACCESS_DENIED.forbidden);
  return actor;
}

/**
 * The main role of a person in an app of a project they may see (projectAccess); null for a superadmin, and for a
 * member who has none (appAccess answers them "unconfigured"). On a read of the project's address the session read
 * it already (plugins/session.ts ProjectContext): no statement of its own.
 */
export async function mainRoleIn(
  db: DbOrTx,
  access: ProjectAccess,
  user: SessionUser,
  app: PermissionApp,
): Promise<string | null> {
  if (access.isSuperadmin) return null;
  const context = contextFor(user, access.project.id);
  return context ? (context.mainRoles[app] ?? null) : await mainRoleOf(db, access.project.id, user.id, app);
}

/**
 * Whether the actor's role may use a section (for abilities and for what a list shows). The apps' own helpers
 * (`can`, `canUse`, `mayUse`) narrow `section` to their app's sections.
 */
export function mayUseSection(actor: AppActor, section: PermissionSection): boolean {
  return actor.isSuperadmin || isAllowed(actor.rules, section, actor.role);
}

/**
 * Whoever reads an app's records from another app (standards showing a linked measure, chart review naming one):
 * a project member, resolved by `appViewerOf` so that the owning app's own record rules decide what they see.
 */
export interface Viewer {
  userId: number;
  projectId: number;
  isSuperadmin: boolean;
  /** What the session read of this project on a read of its address: the viewer is then resolved without a query. */
  context?: ProjectContext | undefined;
}

/**
 * The viewer as the app would know them, to decide what of its records they see; null when the app is off for the
 * project (nothing of it is shown). A member without a main role in the app sees what its least role sees (what the
 * app shows every member: published policies, unrestricted published pages), never a draft or a restricted page.
 * It passes no section and decides nothing a person may do.
 */
export async function appViewerOf(db: DbOrTx, app: PermissionApp, viewer: Viewer): Promise<AppActor | null> {
  const context = viewer.context?.projectId === viewer.projectId ? viewer.context : undefined;
  const activeApps = context
    ? (context.project?.activeApps ?? [])
    : ((await db.select({ activeApps: projects.activeApps }).from(projects).where(eq(projects.id, viewer.projectId)))[0]
        ?.activeApps ?? []);
  if (!activeApps.includes(app)) return null;
  const role = viewer.isSuperadmin
    ? null
    : context
      ? (context.mainRoles[app] ?? null)
      : await mainRoleOf(db, viewer.projectId, viewer.userId, app);
  return {
    userId: viewer.userId,
    projectId: viewer.projectId,
    isSuperadmin: viewer.isSuperadmin,
    role: viewer.isSuperadmin ? null : (role ?? MAIN_ROLES[app].at(-1)!),
    rules: context ? withDefaultRules(app, context.rules[app] ?? []) : await rulesFor(db, viewer.projectId, app),
    ip: null,
    requestId: null,
    context,
  };
}
