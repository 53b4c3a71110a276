import { INT4_MAX } from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { projectMemberships, projects } from '../db/schema/index.js';
import { AppError, notFound } from '../lib/errors.js';
import type { ProjectContext, SessionUser } from '../plugins/session.js';

export type ProjectRow = typeof projects.$inferSelect;

export interface ProjectAccess {
  project: ProjectRow;
  /** The actor's role in the project; null for a superadmin who is not a member. */
  projectRole: 'admin' | 'simple' | null;
  isSuperadmin: boolean;
}

/**
 * Who may see a project: its members while it is active, and a superadmin always. Anyone else gets 404, the same
 * answer as for a project that does not exist, so ids of other facilities reveal nothing. Project ids are 1-10 digits
 * in routes (SPEC section 5) but an integer column stops at INT4_MAX: a larger one is a project that does not exist.
 */
export async function projectAccess(db: DbOrTx, actor: SessionUser, projectId: number): Promise<ProjectAccess> {
  if (!Number.isInteger(projectId) || projectId < 1 || projectId > INT4_MAX) throw notFound('Project not found.');
  const context = contextFor(actor, projectId);
  // The session read it (null: no such project) or this is not a read of the project's address.
  const row = context
    ? context.project && { project: context.project, projectRole: context.projectRole }
    : await readAccess(db, actor.id, projectId);
  const isSuperadmin = actor.role === 'superadmin';
  if (!row || (!isSuperadmin && (!row.projectRole || !row.project.isActive))) throw notFound('Project not found.');
  return { project: row.project, projectRole: (row.projectRole as ProjectAccess['projectRole']) ?? null, isSuperadmin };
}

/** What the session read of this project with the request (a read of the project's address), if it did. */
export const contextFor = (user: SessionUser, projectId: number): ProjectContext | undefined =>
  user.projectContext?.projectId === projectId ? user.projectContext : undefined;

async function readAccess(db: DbOrTx, userId: number, projectId: number) {
  const [row] = await db
    .select({ project: projects, projectRole: projectMemberships.projectRole })
    .from(projects)
    .leftJoin(
      projectMemberships,
      and(eq(projectMemberships.projectId, projects.id), eq(projectMemberships.userId, userId)),
    )
    .where(eq(projects.id, projectId));
  return row ?? null;
}

/** Project admins and superadmins administer a project (SPEC section 6 "check-admin"). */
export const isProjectAdmin = (access: ProjectAccess) => access.isSuperadmin || access.projectRole === 'admin';

/** The gate of a project's Admin app: 403 for a member who is not its admin (non-members already got 404). */
export function requireProjectAdmin(access: ProjectAccess): void {
  if (!isProjectAdmin(access)) throw new AppError('FORBIDDEN', 'Only the administrators of this project can do this.');
}
