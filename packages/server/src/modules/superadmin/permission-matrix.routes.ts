import {
  type AuditChanges,
  errorBodySchema,
  MAIN_ROLES,
  PERMISSION_APPS,
  type PermissionApp,
  permissionMatrixCopySchema,
  permissionMatrixQuerySchema,
  permissionMatrixResetSchema,
  permissionMatrixSchema,
  permissionMatrixUpdateSchema,
} from '@portal/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { permissionRules, projects } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { defaultRolesOf, rulesFor } from '../permissions/permissions.service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const appParams = z.object({ app: z.enum(PERMISSION_APPS) });

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** The matrix of an app in a project: the rules in force, each marked when it differs from the default. */
async function loadMatrix(db: DbOrTx, projectId: number, app: PermissionApp) {
  const defaults = defaultRolesOf(app);
  const rules = await rulesFor(db, projectId, app);
  return {
    app,
    project_id: projectId,
    roles: [...MAIN_ROLES[app]],
    sections: rules.map((rule) => ({
      path: rule.path,
      allowed_roles: rule.allowed_roles,
      is_default: sameRoles(rule.allowed_roles, defaults.get(rule.path) ?? []),
      locked: rule.allowed_roles.length === 0,
    })),
  };
}

/**
 * Stores a project's rules for an app: only the sections that differ from the defaults are kept, so a project
 * keeps getting changes to defaults it never touched.
 */
async function writeRules(
  tx: DbOrTx,
  projectId: number,
  app: PermissionApp,
  sections: { path: string; allowed_roles: string[] }[],
  now: Date,
) {
  const defaults = defaultRolesOf(app);
  await tx.delete(permissionRules).where(and(eq(permissionRules.projectId, projectId), eq(permissionRules.app, app)));
  const changed = sections.filter((section) => !sameRoles(section.allowed_roles, defaults.get(section.path) ?? []));
  if (changed.length) {
    await tx.insert(permissionRules).values(
      changed.map((section) => ({
        projectId,
        app,
        path: section.path,
        allowedRoles: section.allowed_roles,
        updatedAt: now,
      })),
    );
  }
}

/** Superadmin: the permission matrices the permission engine reads (SPEC section 6; docs/permissions.md). */
export const permissionMatrixRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const superadmin = superadminOf;
  const requireProject = async (tx: DbOrTx, projectId: number, field = 'project_id') => {
    const [row] = await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId));
    if (!row)
      throw notFound(field === 'project_id' ? 'Project not found.' : 'The project to copy from does not exist.');
  };

  app.get(
    '/super/permissions/:app',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'The permission matrix of an app in a project',
        params: appParams,
        querystring: permissionMatrixQuerySchema,
        response: { 200: permissionMatrixSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      await requireProject(db, request.query.project);
      return loadMatrix(db, request.query.project, request.params.app);
    },
  );

  app.put(
    '/super/permissions/:app',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Save the matrix; a section with no role is locked (superadmins only)',
        params: appParams,
        body: permissionMatrixUpdateSchema,
        response: { 200: permissionMatrixSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      const { app: permissionApp } = request.params;
      const { project_id: projectId, sections } = request.body;
      const known = defaultRolesOf(permissionApp);
      const roles = new Set<string>(MAIN_ROLES[permissionApp]);
      const problems: Record<string, string[]> = {};
      sections.forEach((section, index) => {
        if (!known.has(section.path))
          problems[`sections.${index}.path`] = [`"${section.path}" is not a section of this app.`];
        const unknown = section.allowed_roles.filter((role) => !roles.has(role));
        if (unknown.length) problems[`sections.${index}.allowed_roles`] = [`Unknown role: ${unknown.join(', ')}.`];
      });
      if (new Set(sections.map((s) => s.path)).size !== sections.length)
        problems.sections = ['Each section only once.'];
      if (Object.keys(problems).length) {
        throw new AppError('VALIDATION_FAILED', Object.values(problems)[0]![0]!, problems);
      }
      const before = await loadMatrix(db, projectId, permissionApp);
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        await requireProject(tx, projectId);
        // Sections left out of the body keep their current roles.
        const given = new Map(sections.map((s) => [s.path, s.allowed_roles]));
        const merged = before.sections.map((s) => ({
          path: s.path,
          allowed_roles: [...new Set(given.get(s.path) ?? s.allowed_roles)],
        }));
        await writeRules(tx, projectId, permissionApp, merged, now);
        // The allowed roles of each changed section, by its path.
        const changes: AuditChanges = Object.fromEntries(
          merged
            .filter((s) => !sameRoles(s.allowed_roles, before.sections.find((b) => b.path === s.path)!.allowed_roles))
            .map((s) => [
              s.path,
              { from: before.sections.find((b) => b.path === s.path)!.allowed_roles, to: s.allowed_roles },
            ]),
        );
        await recordAudit(tx, {
          action: 'permissions.update',
          projectId,
          actorUserId: user.id,
          subjectType: 'permission_matrix',
          subjectId: permissionApp,
          data: { changes },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
      });
      return loadMatrix(db, projectId, permissionApp);
    },
  );

  app.post(
    '/super/permissions/:app/copy',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: "Replace a project's matrix with another project's",
        params: appParams,
        body: permissionMatrixCopySchema,
        response: { 200: permissionMatrixSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      const { app: permissionApp } = request.params;
      const { project_id: projectId, from_project_id: fromId } = request.body;
      if (projectId === fromId) {
        throw new AppError('VALIDATION_FAILED', 'Pick another project to copy from.', {
          from_project_id: ['Pick another project to copy from.'],
        });
      }
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        await requireProject(tx, projectId);
        await requireProject(tx, fromId, 'from_project_id');
        const source = await rulesFor(tx, fromId, permissionApp);
        await writeRules(tx, projectId, permissionApp, source, now);
        await recordAudit(tx, {
          action: 'permissions.copy',
          projectId,
          actorUserId: user.id,
          subjectType: 'permission_matrix',
          subjectId: permissionApp,
          data: { from_project_id: fromId },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
      });
      return loadMatrix(db, projectId, permissionApp);
    },
  );

  app.post(
    '/super/permissions/:app/reset',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: "Put a project's matrix back to the defaults",
        params: appParams,
        body: permissionMatrixResetSchema,
        response: { 200: permissionMatrixSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      const { app: permissionApp } = request.params;
      const { project_id: projectId } = request.body;
      const now = app.clock.now();
      await db.transaction(async (tx) => {
        await requireProject(tx, projectId);
        await writeRules(tx, projectId, permissionApp, [], now);
        await recordAudit(tx, {
          action: 'permissions.reset',
          projectId,
          actorUserId: user.id,
          subjectType: 'permission_matrix',
          subjectId: permissionApp,
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
      });
      return loadMatrix(db, projectId, permissionApp);
    },
  );
};
