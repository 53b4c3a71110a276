import type { MainRoleBulk, PolicyPerson } from '@portal/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { personName } from '../../db/person-name.js';
import { policyUsers, projectMemberRoles, projectMemberships, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { PolicyActor } from '../../policies/policy-management.js';
import { writeMainRoles } from '../members/members.service.js';
import type { Notice } from '../notifications/notices.js';
import { pruneDepartmentRoles } from './department-roles.service.js';
import { audit } from './policy-common.js';

/**
 * Who takes part in policy management (policy users) and their main role there (SPEC section 7 "Project-scoped
 * users"). Only members of the project can be policy users; leaving policy management takes the policy role away.
 */

export type PeopleList = 'unassigned' | 'assigned' | 'unassigned-main-role' | 'assigned-main-role';

export async function listPeople(db: DbOrTx, projectId: number, list: PeopleList): Promise<PolicyPerson[]> {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      name: personName,
      email: users.email,
      project_role: projectMemberships.projectRole,
      main_role: projectMemberRoles.mainRole,
      policy_user: sql<boolean>`${policyUsers.userId} is not null`,
    })
    .from(projectMemberships)
    .innerJoin(users, eq(users.id, projectMemberships.userId))
    .leftJoin(policyUsers, and(eq(policyUsers.projectId, projectId), eq(policyUsers.userId, users.id)))
    .leftJoin(
      projectMemberRoles,
      and(
        eq(projectMemberRoles.projectId, projectId),
        eq(projectMemberRoles.userId, users.id),
        eq(projectMemberRoles.app, 'policy_management'),
      ),
    )
    .where(eq(projectMemberships.projectId, projectId))
    .orderBy(asc(personName), asc(users.id));
  const people = rows.map((row) => ({ ...row, project_role: row.project_role as PolicyPerson['project_role'] }));
  switch (list) {
    case 'unassigned':
      return people.filter((p) => !p.policy_user);
    case 'assigned':
      return people.filter((p) => p.policy_user);
    case 'unassigned-main-role':
      return people.filter((p) => p.policy_user && p.main_role === null);
    case 'assigned-main-role':
      return people.filter((p) => p.policy_user && p.main_role !== null);
  }
}

/** The members among `userIds`, or a 400 naming each id that is not a member of this project. */
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

export async function assignPolicyUsers(db: DbOrTx, actor: PolicyActor, userIds: number[], now: Date) {
  await requireMembers(db, actor.projectId, userIds, 'user_ids');
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(policyUsers)
      .values(
        userIds.map((userId) => ({ projectId: actor.projectId, userId, createdBy: actor.userId, createdAt: now })),
      )
      .onConflictDoNothing()
      .returning({ userId: policyUsers.userId });
    if (added.length) {
      await audit(
        tx,
        actor,
        'users_added',
        { type: 'project', id: actor.projectId },
        {
          user_ids: added.map((row) => row.userId),
        },
        now,
      );
    }
  });
  return listPeople(db, actor.projectId, 'assigned');
}

/**
 * The whole list of policy users: those left out stop taking part and lose their policy main role and department
 * roles (open rounds follow; their notices go to `notices`, to send after commit).
 */
export async function replacePolicyUsers(
  db: DbOrTx,
  actor: PolicyActor,
  userIds: number[],
  now: Date,
  notices: Notice[] = [],
) {
  await requireMembers(db, actor.projectId, userIds, 'user_ids');
  const wanted = new Set(userIds);
  if (!actor.isSuperadmin && !wanted.has(actor.userId)) {
    const [self] = await db
      .select({ userId: policyUsers.userId })
      .from(policyUsers)
      .where(and(eq(policyUsers.projectId, actor.projectId), eq(policyUsers.userId, actor.userId)));
    if (self) {
      throw new AppError(
        'CONFLICT',
        'You cannot remove yourself from policy management; ask another policy administrator.',
      );
    }
  }
  await db.transaction(async (tx) => {
    const current = await tx
      .select({ userId: policyUsers.userId })
      .from(policyUsers)
      .where(eq(policyUsers.projectId, actor.projectId));
    const have = new Set(current.map((row) => row.userId));
    const removed = [...have].filter((userId) => !wanted.has(userId));
    const added = userIds.filter((userId) => !have.has(userId));
    if (removed.length) {
      await tx
        .delete(policyUsers)
        .where(and(eq(policyUsers.projectId, actor.projectId), inArray(policyUsers.userId, removed)));
      await tx
        .delete(projectMemberRoles)
        .where(
          and(
            eq(projectMemberRoles.projectId, actor.projectId),
            eq(projectMemberRoles.app, 'policy_management'),
            inArray(projectMemberRoles.userId, removed),
          ),
        );
      for (const userId of removed) notices.push(...(await pruneDepartmentRoles(tx, actor, userId, now)));
    }
    if (added.length) {
      await tx
        .insert(policyUsers)
        .values(
          added.map((userId) => ({ projectId: actor.projectId, userId, createdBy: actor.userId, createdAt: now })),
        );
    }
    if (removed.length || added.length) {
      await audit(tx, actor, 'users_updated', { type: 'project', id: actor.projectId }, { added, removed }, now);
    }
  });
  return listPeople(db, actor.projectId, 'assigned');
}

/**
 * Sets main roles (null removes one). Everyone named must be a policy user; nobody changes their own role. Department
 * roles the new role does not allow are dropped; the notices of the rounds that follow go to `notices`.
 */
export async function setMainRoles(
  db: DbOrTx,
  actor: PolicyActor,
  items: MainRoleBulk['items'],
  now: Date,
  notices: Notice[] = [],
) {
  const people = new Map((await listPeople(db, actor.projectId, 'assigned')).map((p) => [p.id, p]));
  const errors: Record<string, string[]> = {};
  items.forEach((item, i) => {
    if (!people.has(item.user_id)) errors[`items.${i}`] = ['This person does not take part in policy management.'];
    else if (item.user_id === actor.userId && !actor.isSuperadmin) {
      errors[`items.${i}`] = ['You cannot change your own role; ask another policy administrator.'];
    }
  });
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', Object.values(errors)[0]![0]!, errors);
  const changes = items.filter((item) => people.get(item.user_id)!.main_role !== item.main_role);
  if (changes.length) {
    await db.transaction(async (tx) => {
      for (const item of changes) {
        notices.push(
          ...(await writeMainRoles(
            tx,
            actor.projectId,
            item.user_id,
            { policy_management: item.main_role },
            actor,
            now,
          )),
        );
      }
      await audit(
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

/** One person's role: a 404 when they are not a policy user of this project, a 409 for one's own role. */
export async function setMainRole(
  db: DbOrTx,
  actor: PolicyActor,
  userId: number,
  mainRole: string | null,
  now: Date,
  notices: Notice[] = [],
) {
  const people = await listPeople(db, actor.projectId, 'assigned');
  const person = people.find((p) => p.id === userId);
  if (!person) throw new AppError('NOT_FOUND', 'This person does not take part in policy management.');
  if (userId === actor.userId && !actor.isSuperadmin) {
    throw new AppError('CONFLICT', 'You cannot change your own role; ask another policy administrator.');
  }
  await setMainRoles(
    db,
    actor,
    [{ user_id: userId, main_role: mainRole as MainRoleBulk['items'][number]['main_role'] }],
    now,
    notices,
  );
  return (await listPeople(db, actor.projectId, 'assigned')).find((p) => p.id === userId)!;
}
