import {
  mainRoleDashboardSchema,
  monitoringRoleDeletedSchema,
  monitoringRoleInputSchema,
  monitoringRoleSchema,
  monitoringRolesSchema,
  pagePermissionRowSchema,
  pagePermissionsSchema,
  pagePermissionsUpdateSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { mainRoleDashboard } from './people.service.js';
import {
  createRole,
  deleteRole,
  listRoles,
  pagePermissions,
  updatePagePermissions,
  updateRole,
} from './permissions.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const roleParams = projectParams.extend({ roleId: pathId('role') });
const pageParams = projectParams.extend({ pageId: pathId('page') });

/**
 * The main-role dashboard, monitoring roles and page permissions (decision record 008; docs/monitoring.md "People
 * and permissions"). Monitoring users, their main roles and new-user requests are the people module's, as for every
 * app (modules/people, MONITORING_PEOPLE). Every call names its permission section.
 */
export const monitoringPeopleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  // -- Main-role dashboard (main-role-dashboard) ---------------------------------------------------------------

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
