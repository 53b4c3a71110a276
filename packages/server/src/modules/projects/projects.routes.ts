import {
  APP_CODES,
  activeAppsSchema,
  checkAdminSchema,
  errorBodySchema,
  memberProjectsSchema,
  myAppsSchema,
  projectSchema,
} from '@portal/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { projectMemberships, projects } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';
import { readFile } from '../../lib/files.js';
import { projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { projectAppsOf } from '../../policies/project-apps.js';
import { isProjectAdmin, type ProjectAccess, projectAccess } from '../../policies/projects.js';
import { logoUrl } from './project-details.service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const activeApps = (apps: string[]) => APP_CODES.filter((code) => apps.includes(code));

const presentProject = ({ project, projectRole }: ProjectAccess) => ({
  id: project.id,
  name: project.name,
  slug: project.slug,
  active_apps: activeApps(project.activeApps),
  facility_name: project.facilityName,
  is_active: project.isActive,
  project_role: projectRole,
  logo_url: logoUrl(project),
});

/** SPEC section 7 "Projects". */
export const projectRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const columns = { id: projects.id, name: projects.name, slug: projects.slug, activeApps: projects.activeApps };
  const present = (rows: { id: number; name: string; slug: string; activeApps: string[] }[]) => ({
    projects: rows.map(({ activeApps: apps, ...rest }) => ({ ...rest, active_apps: activeApps(apps) })),
  });

  app.get(
    '/api/member/projects',
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['projects'],
        summary: 'The active projects I belong to (every active project for a superadmin)',
        response: { 200: memberProjectsSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (user.role === 'superadmin') {
        // Across projects by design: a superadmin administers every project.
        return present(
          await db.select(columns).from(projects).where(eq(projects.isActive, true)).orderBy(asc(projects.name)),
        );
      }
      return present(
        await db
          .select(columns)
          .from(projects)
          .innerJoin(projectMemberships, eq(projectMemberships.projectId, projects.id))
          .where(and(eq(projectMemberships.userId, user.id), eq(projects.isActive, true)))
          .orderBy(asc(projects.name)),
      );
    },
  );

  app.get(
    '/api/projects/:projectId',
    {
      config: { access: access.project() },
      schema: {
        tags: ['projects'],
        summary: 'A project I may open',
        params: projectParams,
        response: { 200: projectSchema, ...errors },
      },
    },
    async (request) => presentProject(await projectAccess(db, requireUser(request), request.params.projectId)),
  );

  app.get(
    '/api/projects/:projectId/active-apps',
    {
      config: { access: access.project() },
      schema: {
        tags: ['projects'],
        summary: 'The app codes switched on for this project',
        params: projectParams,
        response: { 200: activeAppsSchema, ...errors },
      },
    },
    async (request) =>
      activeApps((await projectAccess(db, requireUser(request), request.params.projectId)).project.activeApps),
  );

  app.get(
    '/api/projects/:projectId/my-apps',
    {
      config: { access: access.project() },
      schema: {
        tags: ['projects'],
        summary: "The project's active apps, whether I can open each, and why not (issue 32)",
        params: projectParams,
        response: { 200: myAppsSchema, ...errors },
      },
    },
    async (request) => ({
      apps: await projectAppsOf(db, requireUser(request), request, request.params.projectId),
    }),
  );

  app.get(
    '/api/projects/:projectId/check-admin',
    {
      config: { access: access.project() },
      schema: {
        tags: ['projects'],
        summary: 'Whether I administer this project',
        params: projectParams,
        response: { 200: checkAdminSchema, ...errors },
      },
    },
    async (request) => ({
      is_admin: isProjectAdmin(await projectAccess(db, requireUser(request), request.params.projectId)),
    }),
  );

  app.get(
    '/api/projects/:projectId/logo',
    {
      config: { access: access.project() },
      schema: {
        tags: ['projects'],
        summary: "The project's logo image (members and superadmins)",
        params: projectParams,
        // 200 is the image itself, so it has no JSON schema.
        response: errors,
      },
    },
    async (request, reply) => {
      const { project } = await projectAccess(db, requireUser(request), request.params.projectId);
      const file = project.logoFileId ? await readFile(db, project.logoFileId) : null;
      if (!file) throw notFound('This project has no logo.');
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Length', file.size)
        .header('Cache-Control', 'private, max-age=86400')
        .header('Content-Security-Policy', "default-src 'none'")
        .header('X-Content-Type-Options', 'nosniff')
        .send(file.data as never);
    },
  );
};
