import {
  mainRoleDashboardSchema,
  monitoringMainRoleBodySchema,
  monitoringMainRoleBulkSchema,
  monitoringPeopleSchema,
  monitoringPersonSchema,
  monitoringRoleDeletedSchema,
  monitoringRoleInputSchema,
  monitoringRoleSchema,
  monitoringRolesSchema,
  monitoringUserRequestCreateSchema,
  monitoringUsersAssignSchema,
  monitoringUsersBodySchema,
  pagePermissionRowSchema,
  pagePermissionsSchema,
  pagePermissionsUpdateSchema,
  userRequestListSchema,
  userRequestSchema,
} from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userRequests } from '../../db/schema/index.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { fileUserRequest, loadUserRequests } from '../superadmin/user-requests.service.js';
import {
  assignMonitoringUsers,
  listMonitoringPeople,
  mainRoleDashboard,
  replaceMonitoringUsers,
  setMonitoringMainRole,
  setMonitoringMainRoles,
} from './people.service.js';
import {
  createRole,
  deleteRole,
  listRoles,
  pagePermissions,
  updatePagePermissions,
  updateRole,
} from './permissions.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const userParams = projectParams.extend({ userId: pathId('user') });
const roleParams = projectParams.extend({ roleId: pathId('role') });
const pageParams = projectParams.extend({ pageId: pathId('page') });

/**
 * Monitoring users, main roles, the main-role dashboard, new-user requests, monitoring roles and page permissions
 * (decision record 008; docs/monitoring.md "People and permissions"). Every call names its permission section.
 */
export const monitoringPeopleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  // -- Monitoring users (assign-users, manage-users) ----------------------------------------------------------

  for (const [path, list, section, summary] of [
    ['users/unassigned', 'unassigned', 'assign-users', 'Members who do not take part in monitoring'],
    ['users', 'assigned', 'manage-users', 'The monitoring users with their main role'],
  ] as const) {
    app.get(
      `${P}/${path}`,
      {
        config: { access: access.section('monitoring', section) },
        schema: { tags, summary, params: projectParams, response: { 200: monitoringPeopleSchema, ...errors } },
      },
      async (request) => {
        const a = await actor(request, section);
        return { users: await listMonitoringPeople(db, a.projectId, list) };
      },
    );
  }

  app.post(
    `${P}/users/assign`,
    {
      config: { access: access.section('monitoring', 'assign-users') },
      schema: {
        tags,
        summary: 'Adds members to monitoring',
        params: projectParams,
        body: monitoringUsersAssignSchema,
        response: { 200: monitoringPeopleSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'assign-users');
      return { users: await assignMonitoringUsers(db, a, request.body.user_ids, app.clock.now()) };
    },
  );

  app.post(
    `${P}/users/update`,
    {
      config: { access: access.section('monitoring', 'manage-users') },
      schema: {
        tags,
        summary:
          'Sets the whole list of monitoring users (those left out lose their main role, role memberships and grants)',
        params: projectParams,
        body: monitoringUsersBodySchema,
        response: { 200: monitoringPeopleSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'manage-users');
      return { users: await replaceMonitoringUsers(db, a, request.body.user_ids, app.clock.now()) };
    },
  );

  // -- Main roles (assign-main-role) ---------------------------------------------------------------------------

  app.put(
    `${P}/users/:userId/main-role`,
    {
      config: { access: access.section('monitoring', 'assign-main-role') },
      schema: {
        tags,
        summary: "Sets or removes a monitoring user's main role",
        params: userParams,
        body: monitoringMainRoleBodySchema,
        response: { 200: monitoringPersonSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'assign-main-role');
      return setMonitoringMainRole(db, a, request.params.userId, request.body.main_role, app.clock.now());
    },
  );

  app.post(
    `${P}/users/main-role/bulk`,
    {
      config: { access: access.section('monitoring', 'assign-main-role') },
      schema: {
        tags,
        summary: 'Sets the main roles of several monitoring users at once',
        params: projectParams,
        body: monitoringMainRoleBulkSchema,
        response: { 200: monitoringPeopleSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'assign-main-role');
      await setMonitoringMainRoles(db, a, request.body.items, app.clock.now());
      return { users: await listMonitoringPeople(db, a.projectId, 'assigned') };
    },
  );

  app.get(
    `${P}/main-role-dashboard`,
    {
      config: { access: access.section('monitoring', 'main-role-dashboard') },
      schema: {
        tags,
        summary: 'Per main role: its people and their open work; the monitoring users without a main role',
        params: projectParams,
        response: { 200: mainRoleDashboardSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'main-role-dashboard');
      return mainRoleDashboard(db, a.projectId);
    },
  );

  // -- New-user requests (create-user) -------------------------------------------------------------------------

  app.get(
    `${P}/user-requests`,
    {
      config: { access: access.section('monitoring', 'create-user') },
      schema: {
        tags,
        summary: "This project's requests for people with a monitoring main role, newest first",
        params: projectParams,
        response: { 200: userRequestListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'create-user');
      return {
        requests: await loadUserRequests(
          db,
          and(eq(userRequests.projectId, a.projectId), sql`${userRequests.mainRoles} ->> 'monitoring' is not null`),
        ),
      };
    },
  );

  app.post(
    `${P}/user-requests`,
    {
      config: { access: access.section('monitoring', 'create-user') },
      schema: {
        tags,
        summary: 'Ask the superadmins for an account for a future monitoring user; they are notified',
        params: projectParams,
        body: monitoringUserRequestCreateSchema,
        response: { 201: userRequestSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'create-user');
      const { main_role, ...person } = request.body;
      const filed = await fileUserRequest(
        db,
        a,
        a.projectId,
        { ...person, project_role: 'simple', main_roles: { monitoring: main_role } },
        app.clock.now(),
        { refuseDuplicates: { memberHint: 'add them under Monitoring users.' } },
      );
      return reply.status(201).send(filed);
    },
  );

  // -- Monitoring roles (page-role-manager) --------------------------------------------------------------------

  app.get(
    `${P}/roles`,
    {
      config: { access: access.section('monitoring', 'page-role-manager') },
      schema: {
        tags,
        summary: 'The monitoring roles with their members and how many page grants name them',
        params: projectParams,
        response: { 200: monitoringRolesSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-role-manager');
      return { roles: await listRoles(db, a.projectId) };
    },
  );

  app.post(
    `${P}/roles`,
    {
      config: { access: access.section('monitoring', 'page-role-manager') },
      schema: {
        tags,
        summary: 'Creates a monitoring role (name unique in the project, members are monitoring users)',
        params: projectParams,
        body: monitoringRoleInputSchema,
        response: { 201: monitoringRoleSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'page-role-manager');
      return reply.status(201).send(await createRole(db, a, request.body, app.clock.now()));
    },
  );

  app.put(
    `${P}/roles/:roleId`,
    {
      config: { access: access.section('monitoring', 'page-role-manager') },
      schema: {
        tags,
        summary: 'Renames a monitoring role, changes its description and sets its members',
        params: roleParams,
        body: monitoringRoleInputSchema,
        response: { 200: monitoringRoleSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-role-manager');
      return updateRole(db, a, request.params.roleId, request.body, app.clock.now());
    },
  );

  app.delete(
    `${P}/roles/:roleId`,
    {
      config: { access: access.section('monitoring', 'page-role-manager') },
      schema: {
        tags,
        summary: 'Deletes a monitoring role with its memberships and the page grants that name it',
        params: roleParams,
        response: { 200: monitoringRoleDeletedSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-role-manager');
      return deleteRole(db, a, request.params.roleId, app.clock.now());
    },
  );

  // -- Page permissions (page-permissions) ---------------------------------------------------------------------

  app.get(
    `${P}/page-permissions`,
    {
      config: { access: access.section('monitoring', 'page-permissions') },
      schema: {
        tags,
        summary: 'The pages the user manages with their grants and effective (inherited) grants',
        params: projectParams,
        response: { 200: pagePermissionsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-permissions');
      return pagePermissions(db, a);
    },
  );

  app.put(
    `${P}/pages/:pageId/permissions`,
    {
      config: { access: access.section('monitoring', 'page-permissions') },
      schema: {
        tags,
        summary: "Sets a page's restricted flag and replaces its grants (needs level manage on the page)",
        params: pageParams,
        body: pagePermissionsUpdateSchema,
        response: { 200: pagePermissionRowSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'page-permissions');
      return updatePagePermissions(db, a, request.params.pageId, request.body, app.clock.now());
    },
  );
};
