import { ACCESS_DENIED, isAllowed, type PermissionApp, type PermissionRule } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import { AppError, notFound } from '../lib/errors.js';
import { mainRoleOf, rulesFor } from '../modules/permissions/permissions.service.js';
import type { SessionUser } from '../plugins/session.js';
import { projectAccess } from './projects.js';

/**
 * Access to an app of a project whose sections are guarded by main roles and the permission matrix (monitoring,
 * policy management, chart review; docs/permissions.md). Every call names the section it belongs to, the same
 * sections the web guards, so a rule the superadmin edits applies to the screen and to its calls alike:
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
}

const SWITCHED_OFF: Record<PermissionApp, string> = {
  monitoring: 'Monitoring is not switched on for this project.',
  policy_management: 'Policy management is not switched on for this project.',
  chart_review: 'Chart review is not switched on for this project.',
};

export async function appAccess(
  db: DbOrTx,
  app: PermissionApp,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  section: string,
): Promise<AppActor> {
  const access = await projectAccess(db, user, projectId);
  if (!access.project.activeApps.includes(app)) throw notFound(SWITCHED_OFF[app]);
  const role = access.isSuperadmin ? null : await mainRoleOf(db, access.project.id, user.id, app);
  if (!access.isSuperadmin && !role) throw new AppError('FORBIDDEN', ACCESS_DENIED.unconfigured[app]);
  const actor: AppActor = {
    userId: user.id,
    projectId: access.project.id,
    isSuperadmin: access.isSuperadmin,
    role,
    rules: await rulesFor(db, access.project.id, app),
    ip: request.ip,
    requestId: request.id,
  };
  if (!mayUseSection(actor, section)) throw new AppError('FORBIDDEN', ACCESS_DENIED.forbidden);
  return actor;
}

/** Whether the actor's role may use a section (for abilities and for what a list shows). */
export function mayUseSection(actor: AppActor, section: string): boolean {
  return actor.isSuperadmin || isAllowed(actor.rules, section, actor.role);
}
