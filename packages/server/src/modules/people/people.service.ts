import {
  type AuditActionIn,
  type MainRoleChange,
  PEOPLE_CONTRACTS,
  type PeopleApp,
  type PeoplePerson,
} from '@portal/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { projectMemberRoles, projectMemberships, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { AppActor } from '../../policies/app-access.js';
import { writeMainRoles } from '../members/members.service.js';
import type { Notice } from '../notifications/notices.js';
import { PEOPLE_APP_DESCRIPTORS, type PeopleAppDescriptor, type PeopleList } from './apps.js';

export type { PeopleList };

/**
 * Who takes part in an app with people screens (policy users, monitoring users) and their main role there (SPEC
 * section 7 "Project-scoped users"; decision record 008; issue 26): one service driven by the app's descriptor
 * (apps.ts). Only members of the project take part; leaving the app takes its main role away and whatever else the
 * app ties to its users (the descriptor's `onRemoved`).
 */

const IN_LIST: Record<PeopleList, (person: { takesPart: boolean; mainRole: string | null }) => boolean> = {
  unassigned: (p) => !p.takesPart,
  assigned: (p) => p.takesPart,
  'unassigned-main-role': (p) => p.takesPart && p.mainRole === null,
  'assigned-main-role': (p) => p.takesPart && p.mainRole !== null,
};

/** Records a change of the app's people (`policy.users_added`, `monitoring.users_added`, …). */
function audit(
  tx: DbOrTx,
  d: PeopleAppDescriptor,
  actor: AppActor,
  action: AuditActionIn<'policy'> & AuditActionIn<'monitoring'>,
  data: Record<string, unknown>,
  at: Date,
) {
  return recordAudit(tx, {
    action: `${d.auditPrefix}.${action}`,
    projectId: actor.projectId,
    actorUserId: actor.userId,
    subjectType: 'project',
    subjectId: actor.projectId,
    data,
    ip: actor.ip,
    requestId: actor.requestId,
    at,
  });
}

/** The project's members in one of the app's lists, by name. */
export async function listPeople<A extends PeopleApp>(
  db: DbOrTx,
  d: PeopleAppDescriptor<A>,
  projectId: number,
  list: PeopleList,
): Promise<PeoplePerson<A>[]> {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      name: personName,
      email: users.email,
      project_role: projectMemberships.projectRole,
      main_role: projectMemberRoles.mainRole,
      takes_part: sql<boolean>`${d.usersTable.userId} is not null`,
    })
    .from(projectMemberships)
    .innerJoin(users, eq(users.id, projectMemberships.userId))
    .leftJoin(d.usersTable, and(eq(d.usersTable.projectId, projectId), eq(d.usersTable.userId, users.id)))
    .leftJoin(
      projectMemberRoles,
      and(
        eq(projectMemberRoles.projectId, projectId),
        eq(projectMemberRoles.userId, users.id),
        eq(projectMemberRoles.app, d.app),
      ),
    )
    .where(eq(projectMemberships.projectId, projectId))
    .orderBy(asc(personName), asc(users.id));
  const flag = PEOPLE_CONTRACTS[d.app].flag;
  return rows
    .filter((row) => IN_LIST[list]({ takesPart: row.takes_part, mainRole: row.main_role }))
    .map(({ takes_part, ...row }) => ({ ...row, [flag]: takes_part }) as PeoplePerson<A>);
}

/** The users of an app in a project with their main role, by name (for the app's own screens: monitoring's dashboard). */
export function listAppUsers<A extends PeopleApp>(db: DbOrTx, app: A, projectId: number): Promise<PeoplePerson<A>[]> {
  return listPeople(db, PEOPLE_APP_DESCRIPTORS[app], projectId, 'assigned');
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

/** Adds members to the app (those already in it stay as they are) -> the app's users after. */
export async function assignUsers<A extends PeopleApp>(
  db: DbOrTx,
  d: PeopleAppDescriptor<A>,
  actor: AppActor,
  userIds: number[],
  now: Date,
) {
  await requireMembers(db, actor.projectId, userIds, 'user_ids');
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(d.usersTable)
      .values(
        userIds.map((userId) => ({ projectId: actor.projectId, userId, createdBy: actor.userId, createdAt: now })),
      )
      .onConflictDoNothing()
      .returning({ userId: d.usersTable.userId });
    if (added.length) await audit(tx, d, actor, 'users_added', { user_ids: added.map((row) => row.userId) }, now);
  });
  return listPeople(db, d, actor.projectId, 'assigned');
}

/**
 * The whole list of the app's users: those left out stop taking part and lose their main role there and what the
 * app ties to its users (`onRemoved`; notices of what follows go to `notices`, to send after commit). Nobody
 * removes themselves (409).
 */
export async function replaceUsers<A extends PeopleApp>(
  db: DbOrTx,
  d: PeopleAppDescriptor<A>,
  actor: AppActor,
  userIds: number[],
  now: Date,
  notices: Notice[] = [],
) {
  await requireMembers(db, actor.projectId, userIds, 'user_ids');
  const wanted = new Set(userIds);
  const table = d.usersTable;
  if (!actor.isSuperadmin && !wanted.has(actor.userId)) {
    const [self] = await db
      .select({ userId: table.userId })
      .from(table)
      .where(and(eq(table.projectId, actor.projectId), eq(table.userId, actor.userId)));
    if (self) {
      throw new AppError('CONFLICT', `You cannot remove yourself from ${d.names.app}; ask another ${d.names.admin}.`);
    }
  }
  await db.transaction(async (tx) => {
    const current = await tx.select({ userId: table.userId }).from(table).where(eq(table.projectId, actor.projectId));
    const have = new Set(current.map((row) => row.userId));
    const removed = [...have].filter((userId) => !wanted.has(userId));
    const added = userIds.filter((userId) => !have.has(userId));
    if (removed.length) {
      await tx.delete(table).where(and(eq(table.projectId, actor.projectId), inArray(table.userId, removed)));
      await tx
        .delete(projectMemberRoles)
        .where(
          and(
            eq(projectMemberRoles.projectId, actor.projectId),
            eq(projectMemberRoles.app, d.app),
            inArray(projectMemberRoles.userId, removed),
          ),
        );
      notices.push(...(await d.onRemoved(tx, actor, removed, now)));
    }
    if (added.length) {
      await tx
        .insert(table)
        .values(
          added.map((userId) => ({ projectId: actor.projectId, userId, createdBy: actor.userId, createdAt: now })),
        );
    }
    if (removed.length || added.length) await audit(tx, d, actor, 'users_updated', { added, removed }, now);
  });
  return listPeople(db, d, actor.projectId, 'assigned');
}

const notTakingPart = (d: PeopleAppDescriptor) => `This person does not take part in ${d.names.app}.`;
const ownRole = (d: PeopleAppDescriptor) => `You cannot change your own role; ask another ${d.names.admin}.`;

/**
 * Sets main roles (null removes one). Everyone named must be a user of the app; nobody changes their own role.
 * Nothing is saved when one item is refused. Notices of what follows (policy management: department roles the new
 * role does not allow are dropped) go to `notices`.
 */
export async function setMainRoles<A extends PeopleApp>(
  db: DbOrTx,
  d: PeopleAppDescriptor<A>,
  actor: AppActor,
  items: MainRoleChange<A>[],
  now: Date,
  notices: Notice[] = [],
) {
  const people = new Map((await listPeople(db, d, actor.projectId, 'assigned')).map((p) => [p.id, p]));
  const errors: Record<string, string[]> = {};
  items.forEach((item, i) => {
    if (!people.has(item.user_id)) errors[`items.${i}`] = [notTakingPart(d)];
    else if (item.user_id === actor.userId && !actor.isSuperadmin) errors[`items.${i}`] = [ownRole(d)];
  });
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', Object.values(errors)[0]![0]!, errors);
  const changes = items.filter((item) => people.get(item.user_id)!.main_role !== item.main_role);
  if (changes.length) {
    await db.transaction(async (tx) => {
      for (const item of changes) {
        notices.push(
          ...(await writeMainRoles(tx, actor.projectId, item.user_id, { [d.app]: item.main_role }, actor, now)),
        );
      }
      const summary = changes.map((item) => ({
        user_id: item.user_id,
        from: people.get(item.user_id)!.main_role,
        to: item.main_role,
      }));
      await audit(tx, d, actor, 'main_roles_changed', { changes: summary }, now);
    });
  }
  return changes;
}

/** One person's role -> the person after: 404 when they are not a user of the app, 409 for one's own role. */
export async function setMainRole<A extends PeopleApp>(
  db: DbOrTx,
  d: PeopleAppDescriptor<A>,
  actor: AppActor,
  userId: number,
  mainRole: MainRoleChange<A>['main_role'],
  now: Date,
  notices: Notice[] = [],
) {
  const person = (await listPeople(db, d, actor.projectId, 'assigned')).find((p) => p.id === userId);
  if (!person) throw new AppError('NOT_FOUND', notTakingPart(d));
  if (userId === actor.userId && !actor.isSuperadmin) throw new AppError('CONFLICT', ownRole(d));
  await setMainRoles(db, d, actor, [{ user_id: userId, main_role: mainRole } as MainRoleChange<A>], now, notices);
  return (await listPeople(db, d, actor.projectId, 'assigned')).find((p) => p.id === userId)!;
}
