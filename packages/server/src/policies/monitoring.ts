import { ACCESS_DENIED, isAllowed, type PermissionRule } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import { AppError, notFound } from '../lib/errors.js';
import { mainRoleOf, rulesFor } from '../modules/permissions/permissions.service.js';
import type { SessionUser } from '../plugins/session.js';
import { projectAccess } from './projects.js';

/**
 * Who may do what in a project's monitoring (docs/permissions.md, decision record 008). Every call names the section
 * of the permission engine it belongs to, the same sections the web guards:
 * - not a member of the project, or the app is off: 404;
 * - a member without a monitoring main role: 403 "unconfigured";
 * - a role the section's rule does not list: 403 "forbidden".
 * Superadmins pass every section check. What a person may do on one page is decided per page (page-access.ts).
 */
export interface MonitoringActor {
  userId: number;
  projectId: number;
  isSuperadmin: boolean;
  /** The monitoring main role; null for a superadmin who has none. */
  role: string | null;
  rules: PermissionRule[];
  ip: string | null;
  requestId: string | null;
}

export async function monitoringAccess(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  section: string,
): Promise<MonitoringActor> {
  const access = await projectAccess(db, user, projectId);
  if (!access.project.activeApps.includes('monitoring')) {
    throw notFound('Monitoring is not switched on for this project.');
  }
  const role = access.isSuperadmin ? null : await mainRoleOf(db, access.project.id, user.id, 'monitoring');
  if (!access.isSuperadmin && !role) throw new AppError('FORBIDDEN', ACCESS_DENIED.unconfigured.monitoring);
  const actor: MonitoringActor = {
    userId: user.id,
    projectId: access.project.id,
    isSuperadmin: access.isSuperadmin,
    role,
    rules: await rulesFor(db, access.project.id, 'monitoring'),
    ip: request.ip,
    requestId: request.id,
  };
  if (!canUse(actor, section)) throw new AppError('FORBIDDEN', ACCESS_DENIED.forbidden);
  return actor;
}

/** Whether the actor's role may use a section (for abilities and for what a list shows). */
export function canUse(actor: MonitoringActor, section: string): boolean {
  return actor.isSuperadmin || isAllowed(actor.rules, section, actor.role);
}

/** Monitoring administrators (and superadmins) see and manage every page, restricted or not. */
export const administersMonitoring = (actor: MonitoringActor) =>
  actor.isSuperadmin || actor.role === 'monitoring_admin';
