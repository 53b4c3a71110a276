import { ACCESS_DENIED, isAllowed, type PermissionRule } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import { AppError, notFound } from '../lib/errors.js';
import { mainRoleOf, rulesFor } from '../modules/permissions/permissions.service.js';
import type { SessionUser } from '../plugins/session.js';
import { projectAccess } from './projects.js';

/**
 * Who may do what in a project's chart review (docs/permissions.md; the superadmin's chart-review permission
 * matrix). Every call names the section of the permission engine it belongs to, the same sections the web guards:
 * dashboard, my, review, sampling, irr, findings, tools, settings.
 * - not a member of the project, or the app is off: 404 (nothing about the project is revealed);
 * - a member without a chart review main role: 403 "unconfigured";
 * - a role the section's rule does not list: 403 "forbidden".
 * Superadmins pass every section check.
 */
export interface ChartReviewActor {
  userId: number;
  projectId: number;
  isSuperadmin: boolean;
  /** The chart review main role; null for a superadmin who has none. */
  role: string | null;
  rules: PermissionRule[];
  ip: string | null;
  requestId: string | null;
}

export async function chartReviewAccess(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  section: string,
): Promise<ChartReviewActor> {
  const access = await projectAccess(db, user, projectId);
  if (!access.project.activeApps.includes('chart_review')) {
    throw notFound('Chart review is not switched on for this project.');
  }
  const role = access.isSuperadmin ? null : await mainRoleOf(db, access.project.id, user.id, 'chart_review');
  if (!access.isSuperadmin && !role) throw new AppError('FORBIDDEN', ACCESS_DENIED.unconfigured.chart_review);
  const actor: ChartReviewActor = {
    userId: user.id,
    projectId: access.project.id,
    isSuperadmin: access.isSuperadmin,
    role,
    rules: await rulesFor(db, access.project.id, 'chart_review'),
    ip: request.ip,
    requestId: request.id,
  };
  if (!mayUse(actor, section)) throw new AppError('FORBIDDEN', ACCESS_DENIED.forbidden);
  return actor;
}

/** Whether the actor's role may use a section (for abilities and for what a list shows). */
export function mayUse(actor: ChartReviewActor, section: string): boolean {
  return actor.isSuperadmin || isAllowed(actor.rules, section, actor.role);
}
