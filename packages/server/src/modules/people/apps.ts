import type { PeopleApp, PermissionSection } from '@portal/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { monPagePermissions, monRoleMembers, monUsers, policyUsers } from '../../db/schema/index.js';
import type { AppActor } from '../../policies/app-access.js';
import type { Notice } from '../notifications/notices.js';
import { pruneDepartmentRoles } from '../policies/department-roles.service.js';

/**
 * The apps whose people (who takes part, their main roles, new-user requests) one module serves (issue 26): each
 * app's descriptor holds what differs — its code, its table of users, its audit prefix, the names its messages use,
 * its routes (paths, sections, summaries) and what leaving it takes away. people.service.ts and people.routes.ts read
 * nothing else of the app.
 */

/** `unassigned`: members not in the app; `assigned`: its users; `*-main-role`: its users without / with a role. */
export type PeopleList = 'unassigned' | 'assigned' | 'unassigned-main-role' | 'assigned-main-role';

interface Call<A extends PeopleApp> {
  /** Under the app's prefix (`users/assign`). */
  path: string;
  /** The permission section the call needs (routes declare it as `config.access`). */
  section: PermissionSection<A>;
}

export interface PeopleAppDescriptor<A extends PeopleApp = PeopleApp> {
  /** The app's code: its permission sections, its main role in project_member_roles, its key in `main_roles`. */
  app: A;
  /** Who takes part (project_id, user_id, created_by, created_at). */
  usersTable: typeof policyUsers | typeof monUsers;
  /** Its audit actions are `{auditPrefix}.users_added` and so on. */
  auditPrefix: 'policy' | 'monitoring';
  /** Words of the messages and summaries: `app` in "take part in {app}", `user` as "a {user}", the screen's title. */
  names: { app: string; user: string; users: string; title: string; admin: string };
  /** The prefix of the app's calls and its OpenAPI tag. */
  prefix: string;
  tags: string[];
  /** The people lists the app offers. */
  lists: readonly (Call<A> & { list: PeopleList; summary: string })[];
  assign: Call<A>;
  /** `loses`: what those left out lose, for the summary. */
  update: Call<A> & { loses: string };
  mainRole: Call<A>;
  /** `answers`: the list the bulk call answers with. */
  bulk: Call<A> & { answers: PeopleList };
  userRequests: Call<A>;
  /** What else people lose when they stop taking part (in the transaction); the notices to send after commit. */
  onRemoved: (tx: DbOrTx, actor: AppActor, userIds: number[], now: Date) => Promise<Notice[]>;
}

/** Policy management (SPEC section 7 "Project-scoped users"; docs/policies.md). */
export const POLICY_PEOPLE: PeopleAppDescriptor<'policy_management'> = {
  app: 'policy_management',
  usersTable: policyUsers,
  auditPrefix: 'policy',
  names: {
    app: 'policy management',
    user: 'policy user',
    users: 'policy users',
    title: 'Policy users',
    admin: 'policy administrator',
  },
  prefix: '/api/projects/:projectId/policy-management',
  tags: ['policy management'],
  lists: [
    {
      path: 'eligible-users/unassigned',
      list: 'unassigned',
      section: 'policy-users',
      summary: 'Members who do not take part in policy management',
    },
    { path: 'eligible-users/assigned', list: 'assigned', section: 'policy-users', summary: 'The policy users' },
    {
      path: 'pol-man-users/unassigned-main-role',
      list: 'unassigned-main-role',
      section: 'assign-main-role',
      summary: 'Policy users without a main role',
    },
    {
      path: 'pol-man-users/assigned-main-role',
      list: 'assigned-main-role',
      section: 'edit-main-role',
      summary: 'Policy users with a main role',
    },
  ],
  assign: { path: 'policy-users/assign', section: 'policy-users' },
  update: { path: 'policy-users/update', section: 'policy-users', loses: 'their policy role' },
  mainRole: { path: 'pol-man-users/:userId/main-role', section: 'edit-main-role' },
  bulk: { path: 'pol-man-users/main-role/bulk', section: 'assign-main-role', answers: 'assigned-main-role' },
  userRequests: { path: 'user-requests', section: 'create-project-user' },
  // Their department roles go too; the open rounds that waited for them follow.
  onRemoved: async (tx, actor, userIds, now) => {
    const notices: Notice[] = [];
    for (const userId of userIds) notices.push(...(await pruneDepartmentRoles(tx, actor, userId, now)));
    return notices;
  },
};

/** Monitoring (decision record 008; docs/monitoring.md "People and permissions"). */
export const MONITORING_PEOPLE: PeopleAppDescriptor<'monitoring'> = {
  app: 'monitoring',
  usersTable: monUsers,
  auditPrefix: 'monitoring',
  names: {
    app: 'monitoring',
    user: 'monitoring user',
    users: 'monitoring users',
    title: 'Monitoring users',
    admin: 'monitoring administrator',
  },
  prefix: '/api/projects/:projectId/monitoring',
  tags: ['monitoring'],
  lists: [
    {
      path: 'users/unassigned',
      list: 'unassigned',
      section: 'assign-users',
      summary: 'Members who do not take part in monitoring',
    },
    { path: 'users', list: 'assigned', section: 'manage-users', summary: 'The monitoring users with their main role' },
  ],
  assign: { path: 'users/assign', section: 'assign-users' },
  update: { path: 'users/update', section: 'manage-users', loses: 'their main role, role memberships and grants' },
  mainRole: { path: 'users/:userId/main-role', section: 'assign-main-role' },
  bulk: { path: 'users/main-role/bulk', section: 'assign-main-role', answers: 'assigned' },
  userRequests: { path: 'user-requests', section: 'create-user' },
  // Their monitoring role memberships and the page grants made to them go too.
  onRemoved: async (tx, actor, userIds) => {
    await tx
      .delete(monRoleMembers)
      .where(and(eq(monRoleMembers.projectId, actor.projectId), inArray(monRoleMembers.userId, userIds)));
    await tx
      .delete(monPagePermissions)
      .where(and(eq(monPagePermissions.projectId, actor.projectId), inArray(monPagePermissions.userId, userIds)));
    return [];
  },
};

/** The descriptors by app code. */
export const PEOPLE_APP_DESCRIPTORS: { [A in PeopleApp]: PeopleAppDescriptor<A> } = {
  policy_management: POLICY_PEOPLE,
  monitoring: MONITORING_PEOPLE,
};
