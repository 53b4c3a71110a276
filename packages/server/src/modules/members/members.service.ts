import { type MainRoles, type Member, PERMISSION_APPS, type ProjectRole } from '@portal/shared';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { monUsers, policyUsers, projectMemberRoles, projectMemberships, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { writerActor } from '../../policies/policy-management.js';
import type { Notice } from '../notifications/notices.js';
import { pruneDepartmentRoles } from '../policies/department-roles.service.js';

/**
 * Project members and their roles, shared by the superadmin console (/super/projects/{id}/members) and a project's
 * Admin app (/api/projects/{id}/admin/members). Every function takes the project id and keeps to it.
 */

export interface Actor {
  userId: number;
  ip: string | null;
  requestId: string | null;
}

type MainRoleAnswer = Member['main_roles'];
const noRoles = (): MainRoleAnswer => ({ monitoring: null, policy_management: null, chart_review: null });

/** { userId: { app: role } } for the given users of a project. */
export async function mainRolesByUser(
  db: DbOrTx,
  projectId: number,
  userIds: number[],
): Promise<Map<number, MainRoleAnswer>> {
  const byUser = new Map<number, MainRoleAnswer>();
  if (!userIds.length) return byUser;
  const rows = await db
    .select()
    .from(projectMemberRoles)
    .where(and(eq(projectMemberRoles.projectId, projectId), inArray(projectMemberRoles.userId, userIds)));
  for (const row of rows) {
    const roles = byUser.get(row.userId) ?? noRoles();
    roles[row.app as keyof MainRoleAnswer] = row.mainRole;
    byUser.set(row.userId, roles);
  }
  return byUser;
}

/** The members of a project (or one of them), ordered by name. */
export async function listMembers(db: DbOrTx, projectId: number, onlyUserId?: number): Promise<Member[]> {
  const rows = await db
    .select({ user: users, membership: projectMemberships })
    .from(projectMemberships)
    .innerJoin(users, eq(users.id, projectMemberships.userId))
    .where(
      and(
        eq(projectMemberships.projectId, projectId),
        onlyUserId === undefined ? undefined : eq(projectMemberships.userId, onlyUserId),
      ),
    )
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`), asc(users.username));
  const roles = await mainRolesByUser(
    db,
    projectId,
    rows.map((row) => row.user.id),
  );
  return rows.map(({ user, membership }) => ({
    user_id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    status: user.status as Member['status'],
    project_role: membership.projectRole as ProjectRole,
    main_roles: roles.get(user.id) ?? noRoles(),
    last_login_at: user.lastLoginAt?.toISOString() ?? null,
    two_factor_enabled: user.twoFactorConfirmedAt !== null,
    joined_at: membership.createdAt.toISOString(),
  }));
}

export async function getMember(db: DbOrTx, projectId: number, userId: number): Promise<Member> {
  const [member] = await listMembers(db, projectId, userId);
  if (!member) throw notFound('This user is not a member of this project.');
  return member;
}

/**
 * Writes the main roles given (null removes one; apps left out stay as they are). A new policy main role also drops
 * the department roles it does not allow, and the open review and signature rounds follow: the notices returned are
 * for the caller to send once its transaction has committed.
 */
export async function writeMainRoles(
  tx: DbOrTx,
  projectId: number,
  userId: number,
  roles: MainRoles,
  actor: Actor,
  now: Date,
): Promise<Notice[]> {
  for (const app of PERMISSION_APPS) {
    const role = roles[app];
    if (role === undefined) continue;
    const where = and(
      eq(projectMemberRoles.projectId, projectId),
      eq(projectMemberRoles.userId, userId),
      eq(projectMemberRoles.app, app),
    );
    if (role === null) await tx.delete(projectMemberRoles).where(where);
    else {
      await tx
        .insert(projectMemberRoles)
        .values({ projectId, userId, app, mainRole: role, createdAt: now })
        .onConflictDoUpdate({
          target: [projectMemberRoles.projectId, projectMemberRoles.userId, projectMemberRoles.app],
          set: { mainRole: role },
        });
      // A policy main role makes the member a policy user (the people screens of policy management list them).
      if (app === 'policy_management') {
        await tx.insert(policyUsers).values({ projectId, userId, createdAt: now }).onConflictDoNothing();
      }
      if (app === 'monitoring')
        await tx.insert(monUsers).values({ projectId, userId, createdAt: now }).onConflictDoNothing();
    }
  }
  if (roles.policy_management === undefined) return [];
  return pruneDepartmentRoles(tx, writerActor(projectId, actor), userId, now);
}

/** A project never loses its last admin: demoting or removing them answers 409. */
export async function keepOneAdmin(tx: DbOrTx, projectId: number, userId: number): Promise<void> {
  const [others] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(projectMemberships)
    .where(
      and(
        eq(projectMemberships.projectId, projectId),
        eq(projectMemberships.projectRole, 'admin'),
        ne(projectMemberships.userId, userId),
      ),
    );
  if (!others?.count) {
    throw new AppError('CONFLICT', 'A project needs at least one project admin. Make someone else an admin first.');
  }
}

async function lockMembership(tx: DbOrTx, projectId: number, userId: number) {
  const [row] = await tx
    .select()
    .from(projectMemberships)
    .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, userId)))
    .for('update');
  if (!row) throw notFound('This user is not a member of this project.');
  return row;
}

export async function addMember(
  db: Database,
  projectId: number,
  input: { user_id: number; project_role: ProjectRole; main_roles: MainRoles },
  actor: Actor,
  now: Date,
  notices: Notice[] = [],
): Promise<Member> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.user_id));
    if (!user) throw new AppError('VALIDATION_FAILED', 'Pick a user.', { user_id: ['This user does not exist.'] });
    const added = await tx
      .insert(projectMemberships)
      .values({ projectId, userId: input.user_id, projectRole: input.project_role, createdAt: now })
      .onConflictDoNothing()
      .returning({ userId: projectMemberships.userId });
    if (!added.length) {
      throw new AppError('CONFLICT', 'This user is already a member of this project.', {
        user_id: ['This user is already a member of this project.'],
      });
    }
    notices.push(...(await writeMainRoles(tx, projectId, input.user_id, input.main_roles, actor, now)));
    await recordAudit(tx, {
      action: 'member.add',
      projectId,
      actorUserId: actor.userId,
      subjectType: 'user',
      subjectId: input.user_id,
      data: { project_role: input.project_role, main_roles: input.main_roles },
      ip: actor.ip,
      requestId: actor.requestId,
      at: now,
    });
  });
  return getMember(db, projectId, input.user_id);
}

/** `{ <app>_role: role }` of main roles, for the audit's changes (`monitoring_role`: "Monitoring role"). */
const roleFields = (roles: Partial<Record<string, string | null>>) =>
  Object.fromEntries(Object.entries(roles).map(([app, role]) => [`${app}_role`, role ?? null]));

export async function updateMember(
  db: Database,
  projectId: number,
  userId: number,
  input: { project_role?: ProjectRole; main_roles?: MainRoles },
  actor: Actor,
  now: Date,
  notices: Notice[] = [],
): Promise<Member> {
  await db.transaction(async (tx) => {
    const before = await lockMembership(tx, projectId, userId);
    const rolesBefore = input.main_roles ? (await getMember(tx, projectId, userId)).main_roles : {};
    if (input.project_role && input.project_role !== before.projectRole) {
      if (before.projectRole === 'admin') await keepOneAdmin(tx, projectId, userId);
      await tx
        .update(projectMemberships)
        .set({ projectRole: input.project_role })
        .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, userId)));
    }
    if (input.main_roles) notices.push(...(await writeMainRoles(tx, projectId, userId, input.main_roles, actor, now)));
    await recordAudit(tx, {
      action: 'member.update',
      projectId,
      actorUserId: actor.userId,
      subjectType: 'user',
      subjectId: userId,
      data: {
        changes: changes(
          { project_role: before.projectRole, ...roleFields(rolesBefore) },
          {
            ...(input.project_role ? { project_role: input.project_role } : {}),
            ...roleFields(input.main_roles ?? {}),
          },
        ),
      },
      ip: actor.ip,
      requestId: actor.requestId,
      at: now,
    });
  });
  return getMember(db, projectId, userId);
}

/** Removes a member: their roles go, department roles included (open rounds follow; notices go to `notices`). */
export async function removeMember(
  db: Database,
  projectId: number,
  userId: number,
  actor: Actor,
  now: Date,
  notices: Notice[] = [],
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockMembership(tx, projectId, userId);
    if (before.projectRole === 'admin') await keepOneAdmin(tx, projectId, userId);
    await tx
      .delete(projectMemberRoles)
      .where(and(eq(projectMemberRoles.projectId, projectId), eq(projectMemberRoles.userId, userId)));
    await tx.delete(policyUsers).where(and(eq(policyUsers.projectId, projectId), eq(policyUsers.userId, userId)));
    notices.push(...(await pruneDepartmentRoles(tx, writerActor(projectId, actor), userId, now)));
    await tx
      .delete(projectMemberships)
      .where(and(eq(projectMemberships.projectId, projectId), eq(projectMemberships.userId, userId)));
    await recordAudit(tx, {
      action: 'member.remove',
      projectId,
      actorUserId: actor.userId,
      subjectType: 'user',
      subjectId: userId,
      data: { project_role: before.projectRole },
      ip: actor.ip,
      requestId: actor.requestId,
      at: now,
    });
  });
}

export const actorOf = (request: { ip: string; id: string }, userId: number): Actor => ({
  userId,
  ip: request.ip,
  requestId: request.id,
});
