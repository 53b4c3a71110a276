import {
  type AuditAction,
  errorBodySchema,
  monitoringMeSchema,
  myPermissionsQuerySchema,
  myPermissionsSchema,
  PERMISSION_APPS,
  type PermissionApp,
  permissionRulesSchema,
  policyMeSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../lib/audit.js';
import { projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { SIGNING_ROLES } from '../../policies/permission-defaults.js';
import { projectAccess } from '../../policies/projects.js';
import { mainRoleOf, permissionMap, rulesFor } from './permissions.service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** SPEC section 7 "Permissions" and "Monitoring audit": the role data and rules the screens need, per project. */
export const permissionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  // Monitoring and chart review answer the same "me" shape (SPEC section 3 "Monitoring me-data").
  for (const [segment, permissionApp] of [
    ['monitoring', 'monitoring'],
    ['chart-review', 'chart_review'],
  ] as const) {
    app.get(
      `/api/projects/:projectId/${segment}/me`,
      {
        config: { access: access.project() },
        schema: {
          tags: ['permissions'],
          summary: `My roles for ${segment.replace('-', ' ')} in this project`,
          params: projectParams,
          response: { 200: monitoringMeSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const access = await projectAccess(db, user, request.params.projectId);
        return {
          main_role: await mainRoleOf(db, access.project.id, user.id, permissionApp),
          project_role: access.projectRole,
          is_superadmin: access.isSuperadmin,
        };
      },
    );
  }

  app.get(
    '/api/projects/:projectId/policy-management/me',
    {
      config: { access: access.project() },
      schema: {
        tags: ['permissions'],
        summary: 'My roles for policy management in this project',
        params: projectParams,
        response: { 200: policyMeSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = await projectAccess(db, user, request.params.projectId);
      const mainRole = await mainRoleOf(db, access.project.id, user.id, 'policy_management');
      return {
        main_role: mainRole,
        project_role: access.projectRole,
        can_sign: mainRole !== null && SIGNING_ROLES.has(mainRole),
      };
    },
  );

  for (const [segment, permissionApp] of [
    ['monitoring', 'monitoring'],
    ['policy-management', 'policy_management'],
    ['chart-review', 'chart_review'],
  ] as const) {
    app.get(
      `/api/projects/:projectId/${segment}/permissions`,
      {
        config: { access: access.project() },
        schema: {
          tags: ['permissions'],
          summary: `The permission rules of ${segment} in this project`,
          params: projectParams,
          response: { 200: permissionRulesSchema, ...errors },
        },
      },
      async (request) => {
        const access = await projectAccess(db, requireUser(request), request.params.projectId);
        return { rules: await rulesFor(db, access.project.id, permissionApp) };
      },
    );
  }

  app.get(
    '/api/me/permissions',
    {
      config: { access: access.project() },
      schema: {
        tags: ['permissions'],
        summary: 'My permission map for a project, keyed {app}:{section}',
        querystring: myPermissionsQuerySchema,
        response: { 200: myPermissionsSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const access = await projectAccess(db, user, request.query.project);
      const requested = [request.query.app, ...(request.query.apps?.split(',') ?? [])].filter(Boolean) as string[];
      const apps = requested.length ? PERMISSION_APPS.filter((a) => requested.includes(a)) : [...PERMISSION_APPS];
      return { permissions: await permissionMap(db, access, user.id, apps as PermissionApp[]) };
    },
  );

  const DASHBOARD_EVENTS = {
    'dashboard-visit': 'monitoring.dashboard_visit',
    'dashboard-logout': 'monitoring.dashboard_logout',
  } as const satisfies Record<string, AuditAction>;
  for (const event of ['dashboard-visit', 'dashboard-logout'] as const) {
    app.post(
      `/api/projects/:projectId/monitoring/audit/${event}`,
      {
        config: { access: access.project() },
        schema: {
          tags: ['permissions'],
          summary: `Records a monitoring ${event.replace('-', ' ')} in the audit log`,
          params: projectParams,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const access = await projectAccess(db, user, request.params.projectId);
        await recordAudit(db, {
          action: DASHBOARD_EVENTS[event],
          projectId: access.project.id,
          actorUserId: user.id,
          ip: request.ip,
          requestId: request.id,
          at: app.clock.now(),
        });
        return reply.status(204).send();
      },
    );
  }
};
