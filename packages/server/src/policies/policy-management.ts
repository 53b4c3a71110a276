import { ACCESS_DENIED, isAllowed, type PermissionRule } from '@portal/shared';
import type { DbOrTx } from '../db/client.js';
import { AppError, notFound } from '../lib/errors.js';
import { mainRoleOf, rulesFor } from '../modules/permissions/permissions.service.js';
import type { SessionUser } from '../plugins/session.js';
import { projectAccess } from './projects.js';

/**
 * Who may do what in a project's policy management (docs/permissions.md). Every call names the section of the
 * permission engine it belongs to, the same sections the web guards, so a rule the superadmin edits applies to the
 * screen and to its calls alike:
 * - not a member of the project, or the app is off: 404 (nothing about the project is revealed);
 * - a member without a policy management main role: 403 "unconfigured";
 * - a role the section's rule does not list: 403 "forbidden".
 * Superadmins pass every section check.
 */
export interface PolicyActor {
  userId: number;
  projectId: number;
  isSuperadmin: boolean;
  role: string | null;
  rules: PermissionRule[];
  ip: string | null;
  requestId: string | null;
}

/**
 * The actor of a policy change caused outside policy management (a main role changed in the project Admin app or
 * by the superadmin): who and where, for the audit and the workflow history. It passes no section check.
 */
export function writerActor(
  projectId: number,
  who: { userId: number; ip: string | null; requestId: string | null },
): PolicyActor {
  return {
    userId: who.userId,
    projectId,
    isSuperadmin: false,
    role: null,
    rules: [],
    ip: who.ip,
    requestId: who.requestId,
  };
}

/** Sections of calls that have no screen of their own. */
export const EDIT_DOCUMENTS = 'edit-documents';
export const ARCHIVE_DOCUMENTS = 'archive-documents';

export async function policyAccess(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
  section: string,
): Promise<PolicyActor> {
  const access = await projectAccess(db, user, projectId);
  if (!access.project.activeApps.includes('policy_management')) {
    throw notFound('Policy management is not switched on for this project.');
  }
  const role = access.isSuperadmin ? null : await mainRoleOf(db, access.project.id, user.id, 'policy_management');
  if (!access.isSuperadmin && !role) throw new AppError('FORBIDDEN', ACCESS_DENIED.unconfigured.policy_management);
  const actor: PolicyActor = {
    userId: user.id,
    projectId: access.project.id,
    isSuperadmin: access.isSuperadmin,
    role,
    rules: await rulesFor(db, access.project.id, 'policy_management'),
    ip: request.ip,
    requestId: request.id,
  };
  if (!can(actor, section)) throw new AppError('FORBIDDEN', ACCESS_DENIED.forbidden);
  return actor;
}

/** Whether the actor's role may use a section (for abilities and for what a list shows). */
export function can(actor: PolicyActor, section: string): boolean {
  return actor.isSuperadmin || isAllowed(actor.rules, section, actor.role);
}

/** Authors and admins see drafts and never-published documents; everyone else sees published versions only. */
export const seesDrafts = (actor: PolicyActor) => can(actor, EDIT_DOCUMENTS);
