import { STD_ROLES, type StdRole } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { stdLeads, stdMembers, stdNodes } from '../db/schema/index.js';
import { AppError, notFound } from '../lib/errors.js';
import type { ProjectContext, SessionUser } from '../plugins/session.js';
import { contextFor, isProjectAdmin, projectAccess } from './projects.js';

/**
 * Who may do what in a project's standards (docs/permissions.md "Standards"). The app has its own roles
 * (std_members, manage-users) rather than the superadmin's permission matrix, which SPEC gives to the other apps:
 * - not a member of the project, or the app is off: 404;
 * - a member without a standards role: 403 (project admins and superadmins act as standards admins);
 * - standards admins change everything; chapter leads the elements below the nodes they lead; owners and
 *   contributors the elements they own (contributors comment and link, they do not set results); mock assessors
 *   and viewers read everything (mock assessors comment and record findings).
 * These are the section-level checks; what a role may do to one record (an element, its evidence and findings, a
 * part of an assessment people are assigned to, a tracer) is standards-records.ts.
 */
export interface StandardsActor {
  userId: number;
  projectId: number;
  isSuperadmin: boolean;
  role: StdRole;
  ip: string | null;
  requestId: string | null;
  /** The session's read of the project, when this is a read of its address (policies/app-access.ts Viewer). */
  context?: ProjectContext | undefined;
}

export const STANDARDS_OFF = 'Standards is not switched on for this project.';
export const STANDARDS_UNCONFIGURED =
  'You do not have access to standards features yet. Contact an administrator to assign you a standards role.';
export const STANDARDS_FORBIDDEN = 'Your standards role does not allow this.';

/** The project's standards role of a member: project admins are standards admins whatever is stored. */
export async function standardsRoleOf(
  db: DbOrTx,
  projectId: number,
  userId: number,
  projectAdmin: boolean,
): Promise<StdRole | null> {
  if (projectAdmin) return 'standards_admin';
  const [row] = await db
    .select({ role: stdMembers.role })
    .from(stdMembers)
    .where(and(eq(stdMembers.projectId, projectId), eq(stdMembers.userId, userId)));
  return storedRole(row?.role ?? null, false);
}

/** A stored standards role as the rules read it: project admins are standards admins, an unknown value none. */
function storedRole(stored: string | null, projectAdmin: boolean): StdRole | null {
  if (projectAdmin) return 'standards_admin';
  return stored !== null && (STD_ROLES as readonly string[]).includes(stored) ? (stored as StdRole) : null;
}

export async function standardsAccess(
  db: DbOrTx,
  user: SessionUser,
  request: { ip: string; id: string },
  projectId: number,
): Promise<StandardsActor> {
  const access = await projectAccess(db, user, projectId);
  if (!access.project.activeApps.includes('standards')) throw notFound(STANDARDS_OFF);
  // A read of this project's address: the session read the stored role with it (plugins/session.ts).
  const context = contextFor(user, access.project.id);
  const role = context
    ? storedRole(context.standardsRole, isProjectAdmin(access))
    : await standardsRoleOf(db, access.project.id, user.id, isProjectAdmin(access));
  if (!role) throw new AppError('FORBIDDEN', STANDARDS_UNCONFIGURED);
  return {
    userId: user.id,
    projectId: access.project.id,
    isSuperadmin: access.isSuperadmin,
    role,
    ip: request.ip,
    requestId: request.id,
    context,
  };
}

export const isStandardsAdmin = (actor: StandardsActor) => actor.role === 'standards_admin';

/** Creating assessments, importing frameworks and managing people: standards admins. */
export function requireStandardsAdmin(actor: StandardsActor): void {
  if (!isStandardsAdmin(actor)) throw new AppError('FORBIDDEN', STANDARDS_FORBIDDEN);
}

export const BUILT_IN_EDITIONS_FORBIDDEN =
  'Only a superadmin can load an edition of a regulation: every project of this installation reads it.';

/** Built-in editions (the eCFR importer): every project reads them, so only a superadmin adds one. */
export function requireBuiltInEditor(actor: { isSuperadmin: boolean }): void {
  if (!actor.isSuperadmin) throw new AppError('FORBIDDEN', BUILT_IN_EDITIONS_FORBIDDEN);
}

/** Assigning leads and owners (assign-users): standards admins, and chapter leads below their nodes. */
export const mayAssign = (actor: StandardsActor) => actor.role === 'standards_admin' || actor.role === 'chapter_lead';

/** Roles that write to elements at all (the others only read, and mock assessors comment). */
const WRITERS = new Set<StdRole>(['standards_admin', 'chapter_lead', 'owner', 'contributor']);
export const mayWrite = (actor: StandardsActor) => WRITERS.has(actor.role);

/**
 * The nodes a chapter lead leads in an assessment and every node below them (ids), computed once per request.
 * Empty for anyone else.
 */
export async function ledNodes(db: DbOrTx, actor: StandardsActor, assessmentId: number): Promise<Set<number>> {
  if (actor.role !== 'chapter_lead') return new Set();
  const led = await db
    .select({ nodeId: stdLeads.nodeId })
    .from(stdLeads)
    .where(
      and(
        eq(stdLeads.projectId, actor.projectId),
        eq(stdLeads.assessmentId, assessmentId),
        eq(stdLeads.userId, actor.userId),
      ),
    );
  const result = new Set<number>();
  let frontier = led.map((row) => row.nodeId);
  while (frontier.length > 0) {
    for (const id of frontier) result.add(id);
    const children = await db.select({ id: stdNodes.id }).from(stdNodes).where(inArray(stdNodes.parentId, frontier));
    frontier = children.map((row) => row.id).filter((id) => !result.has(id));
  }
  return result;
}
