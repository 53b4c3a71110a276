import type {
  AuditActionIn,
  MainRoleDashboard,
  MonitoringMainRoleChange,
  MonitoringPerson,
  MonitoringWorkKind,
} from '@portal/shared';
import { MONITORING_MAIN_ROLES } from '@portal/shared';
import { and, asc, count, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import {
  monInsights,
  monPagePermissions,
  monPages,
  monRequests,
  monRoleMembers,
  monUsers,
  projectMemberRoles,
  projectMemberships,
  users,
} from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { writeMainRoles } from '../members/members.service.js';

/**
 * Who takes part in monitoring (monitoring users, mon_users) and their main role there (decision record 008; docs
 * /monitoring.md "People and permissions"). Only members of the project can be monitoring users; leaving monitoring
 * takes the monitoring main role, the monitoring role memberships and the person's own page grants away.
 */

/** Records a monitoring change (`monitoring.<action>`) in the transaction of the change. */
export function monitoringAudit(
  tx: DbOrTx,
  actor: MonitoringActor,
  action: AuditActionIn<'monitoring'>,
  subject: { type: string; id: number | string },
  data: Record<string, unknown> = {},
  at?: Date,
) {
  return recordAudit(tx, {
    action: `monitoring.${action}`,
    projectId: actor.projectId,
    actorUserId: actor.userId,
    subjectType: subject.type,
    subjectId: subject.id,
    data,
    ip: actor.ip,
    requestId: actor.requestId,
    ...(at ? { at } : {}),
  });
}

export type MonitoringPeopleList = 'unassigned' | 'assigned';

/** The members not in monitoring ('unassigned') or the monitoring users with their main role ('assigned'). */
export async function listMonitoringPeople(
  db: DbOrTx,
  projectId: number,
  list: MonitoringPeopleList,
): Promise<MonitoringPerson[]> {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      name: personName,
      email: users.email,
      project_role: projectMemberships.projectRole,
      main_role: projectMemberRoles.mainRole,
      monitoring_user: sql<boolean>`${monUsers.userId} is not null`,
    })
    .from(projectMemberships)
    .innerJoin(users, eq(users.id, projectMemberships.userId))
    .leftJoin(monUsers, and(eq(monUsers.projectId, projectId), eq(monUsers.userId, users.id)))
    .leftJoin(
      projectMemberRoles,
      and(
        eq(projectMemberRoles.projectId, projectId),
        eq(projectMemberRoles.userId, users.id),
        eq(projectMemberRoles.app, 'monitoring'),
      ),
    )
    .where(eq(projectMemberships.projectId, projectId))
    .orderBy(asc(personName), asc(users.id));
  return rows
    .map((row) => ({ ...row, project_role: row.project_role as MonitoringPerson['project_role'] }))
    .filter((person) => (list === 'assigned' ? person.monitoring_user : !person.monitoring_user));
}

/** A 400 naming `field.{index}` for each id that is not a member of this project. */
async function requireMembers(db: DbOrTx, projectId: number, userIds: number[], field: string) {
  if (userIds.length === 0) return;
  const found = await db
    .select({ userId: projectMemberships.userId })
    .from(projectMemberships)
    .where(and(eq(projectMemberships.projectId, projectId), inArray(projectMemberships.userId, userIds)));
  const members = new Set(found.map((row) => row.userId));
  const errors: Record<string, string[]> = {};
  userIds.forEach((userId, i) => {
    if (!members.has(userId)) errors[`${field}.${i}`] = ['This person is not a member of the project.'];
  });
  if (Object.keys(errors).length) {
    throw new AppError('VALIDATION_FAILED', 'Some of the people chosen are not members of the project.', errors);
  }
}

/** The ids among `userIds` that are monitoring users of the project. */
export async function monitoringUserIds(db: DbOrTx, projectId: number, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: monUsers.userId })
    .from(monUsers)
    .innerJoin(
      projectMemberships,
      and(eq(projectMemberships.projectId, monUsers.projectId), eq(projectMemberships.userId, monUsers.userId)),
    )
    .where(and(eq(monUsers.projectId, projectId), inArray(monUsers.userId, userIds)));
  return new Set(rows.map((row) => row.userId));
}

/** A 400 naming `field.{index}` for each id that is not a monitoring user of the project. */
export async function requireMonitoringUsers(db: DbOrTx, projectId: number, userIds: number[], field: string) {
  const found = await monitoringUserIds(db, projectId, userIds);
  const errors: Record<string, string[]> = {};
  userIds.forEach((userId, i) => {
    if (!found.has(userId)) errors[`${field}.${i}`] = ['This person does not take part in monitoring.'];
  });
  if (Object.keys(errors).length) {
    throw new AppError('VALIDATION_FAILED', 'Some of the people chosen do not take part in monitoring.', errors);
  }
}

export async function assignMonitoringUsers(db: DbOrTx, actor: MonitoringActor, userIds: number[], now: Date) {
  await requireMembers(db, actor.projectId, userIds, 'user_ids');
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(monUsers)
      .values(
        userIds.map((userId) => ({ projectId: actor.projectId, userId, createdBy: actor.userId, createdAt: now })),
      )
      .onConflictDoNothing()
      .returning({ userId: monUsers.userId });
    if (added.length) {
      await monitoringAudit(
        tx,
        actor,
        'users_added',
        { type: 'project', id: actor.projectId },
        { user_ids: added.map((row) => row.userId) },
        now,
      );
    }
  });
  return listMonitoringPeople(db, actor.projectId, 'assigned');
}

/**
 * The whole list of monitoring users: those left out stop taking part and lose their monitoring main role, their
 * monitoring role memberships and the page grants made to them. Nobody removes themselves (409).
 */
export async function replaceMonitoringUsers(db: DbOrTx, actor: MonitoringActor, userIds: number[], now: Date) {
  await requireMembers(db, actor.projectId, userIds, 'user_ids');
  const wanted = new Set(userIds);
  if (!actor.isSuperadmin && !wanted.has(actor.userId)) {
    throw new AppError('CONFLICT', 'You cannot remove yourself from monitoring; ask another monitoring administrator.');
  }
  await db.transaction(async (tx) => {
    const current = await tx
      .select({ userId: monUsers.userId })
      .from(monUsers)
      .where(eq(monUsers.projectId, actor.projectId));
    const have = new Set(current.map((row) => row.userId));
    const removed = [...have].filter((userId) => !wanted.has(userId));
    const added = userIds.filter((userId) => !have.has(userId));
    if (removed.length) {
      await tx.delete(monUsers).where(and(eq(monUsers.projectId, actor.projectId), inArray(monUsers.userId, removed)));
      await tx
        .delete(projectMemberRoles)
        .where(
          and(
            eq(projectMemberRoles.projectId, actor.projectId),
            eq(projectMemberRoles.app, 'monitoring'),
            inArray(projectMemberRoles.userId, removed),
          ),
        );
      await tx
        .delete(monRoleMembers)
        .where(and(eq(monRoleMembers.projectId, actor.projectId), inArray(monRoleMembers.userId, removed)));
      await tx
        .delete(monPagePermissions)
        .where(and(eq(monPagePermissions.projectId, actor.projectId), inArray(monPagePermissions.userId, removed)));
    }
    if (added.length) {
      await tx
        .insert(monUsers)
        .values(
          added.map((userId) => ({ projectId: actor.projectId, userId, createdBy: actor.userId, createdAt: now })),
        );
    }
    if (removed.length || added.length) {
      await monitoringAudit(
        tx,
        actor,
        'users_updated',
        { type: 'project', id: actor.projectId },
        { added, removed },
        now,
      );
    }
  });
  return listMonitoringPeople(db, actor.projectId, 'assigned');
}

const OWN_ROLE = 'You cannot change your own role; ask another monitoring administrator.';

/** Sets main roles (null removes one). Everyone named must be a monitoring user; nobody changes their own role. */
export async function setMonitoringMainRoles(
  db: DbOrTx,
  actor: MonitoringActor,
  items: MonitoringMainRoleChange[],
  now: Date,
) {
  const people = new Map((await listMonitoringPeople(db, actor.projectId, 'assigned')).map((p) => [p.id, p]));
  const errors: Record<string, string[]> = {};
  items.forEach((item, i) => {
    if (!people.has(item.user_id)) errors[`items.${i}`] = ['This person does not take part in monitoring.'];
    else if (item.user_id === actor.userId && !actor.isSuperadmin) errors[`items.${i}`] = [OWN_ROLE];
  });
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', Object.values(errors)[0]![0]!, errors);
  const changes = items.filter((item) => people.get(item.user_id)!.main_role !== item.main_role);
  if (changes.length) {
    await db.transaction(async (tx) => {
      for (const item of changes) {
        await writeMainRoles(tx, actor.projectId, item.user_id, { monitoring: item.main_role }, actor, now);
      }
      await monitoringAudit(
        tx,
        actor,
        'main_roles_changed',
        { type: 'project', id: actor.projectId },
        {
          changes: changes.map((item) => ({
            user_id: item.user_id,
            from: people.get(item.user_id)!.main_role,
            to: item.main_role,
          })),
        },
        now,
      );
    });
  }
  return changes;
}

/** One person's role: 404 when they are not a monitoring user of this project, 409 for one's own role. */
export async function setMonitoringMainRole(
  db: DbOrTx,
  actor: MonitoringActor,
  userId: number,
  mainRole: MonitoringMainRoleChange['main_role'],
  now: Date,
) {
  const person = (await listMonitoringPeople(db, actor.projectId, 'assigned')).find((p) => p.id === userId);
  if (!person) throw new AppError('NOT_FOUND', 'This person does not take part in monitoring.');
  if (userId === actor.userId && !actor.isSuperadmin) throw new AppError('CONFLICT', OWN_ROLE);
  await setMonitoringMainRoles(db, actor, [{ user_id: userId, main_role: mainRole }], now);
  return (await listMonitoringPeople(db, actor.projectId, 'assigned')).find((p) => p.id === userId)!;
}

const OPEN_REQUEST = ['submitted', 'triaged', 'in_progress'];

/**
 * The main-role dashboard: per main role its people and their open work (counts only, so no page title reaches the
 * screen), and the monitoring users without a main role.
 */
export async function mainRoleDashboard(db: DbOrTx, projectId: number): Promise<MainRoleDashboard> {
  const people = await listMonitoringPeople(db, projectId, 'assigned');
  const livePage = and(eq(monPages.projectId, projectId), isNull(monPages.deletedAt));
  const byOwner = async (where: ReturnType<typeof and>) =>
    new Map(
      (
        await db
          .select({ userId: monPages.ownerId, n: count() })
          .from(monPages)
          .where(and(livePage, where))
          .groupBy(monPages.ownerId)
      ).map((row) => [row.userId, row.n]),
    );
  const withoutInsight = await byOwner(
    notExists(
      db
        .select({ one: sql`1` })
        .from(monInsights)
        .where(
          and(
            eq(monInsights.projectId, projectId),
            eq(monInsights.pageId, monPages.id),
            eq(monInsights.status, 'published'),
            isNull(monInsights.deletedAt),
          ),
        ),
    ),
  );
  const drafts = await byOwner(eq(monPages.status, 'draft'));
  const [withoutOwner] = await db
    .select({ n: count() })
    .from(monPages)
    .where(and(livePage, isNull(monPages.ownerId)));
  const requestsBy = async (column: typeof monRequests.assigneeId | typeof monRequests.requesterId) =>
    new Map(
      (
        await db
          .select({ userId: column, n: count() })
          .from(monRequests)
          .where(and(eq(monRequests.projectId, projectId), inArray(monRequests.status, OPEN_REQUEST)))
          .groupBy(column)
      ).map((row) => [row.userId, row.n]),
    );
  const assigned = await requestsBy(monRequests.assigneeId);
  const filed = await requestsBy(monRequests.requesterId);
  const [unassigned] = await db
    .select({ n: count() })
    .from(monRequests)
    .where(
      and(eq(monRequests.projectId, projectId), eq(monRequests.status, 'submitted'), isNull(monRequests.assigneeId)),
    );

  const workOf = (role: string, userId: number): { kind: MonitoringWorkKind; count: number }[] => {
    switch (role) {
      case 'monitoring_admin':
        return [
          { kind: 'unassigned_requests', count: unassigned?.n ?? 0 },
          { kind: 'pages_without_owner', count: withoutOwner?.n ?? 0 },
        ];
      case 'page_owner':
        return [
          { kind: 'pages_without_insight', count: withoutInsight.get(userId) ?? 0 },
          { kind: 'draft_pages', count: drafts.get(userId) ?? 0 },
        ];
      case 'data_entry':
        return [{ kind: 'assigned_requests', count: assigned.get(userId) ?? 0 }];
      default:
        return [{ kind: 'own_open_requests', count: filed.get(userId) ?? 0 }];
    }
  };
  const brief = (person: MonitoringPerson) => ({ id: person.id, name: person.name, username: person.username });
  return {
    roles: MONITORING_MAIN_ROLES.map((role) => ({
      role,
      people: people
        .filter((person) => person.main_role === role)
        .map((person) => ({ ...brief(person), work: workOf(role, person.id) })),
    })),
    without_role: people.filter((person) => person.main_role === null).map(brief),
  };
}
