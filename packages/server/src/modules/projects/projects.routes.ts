import { errorBodySchema, memberProjectsSchema } from '@portal/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { projectMemberships, projects } from '../../db/schema/index.js';
import { requireUser } from '../../plugins/session.js';

export const projectRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.get(
    '/api/member/projects',
    {
      schema: {
        tags: ['projects'],
        summary: 'The active projects I belong to (every active project for a superadmin)',
        response: { 200: memberProjectsSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const columns = { id: projects.id, name: projects.name, slug: projects.slug };
      const rows =
        user.role === 'superadmin'
          ? // unsafe across projects by design: a superadmin administers every project.
            await db.select(columns).from(projects).where(eq(projects.isActive, true)).orderBy(asc(projects.name))
          : await db
              .select(columns)
              .from(projects)
              .innerJoin(projectMemberships, eq(projectMemberships.projectId, projects.id))
              .where(and(eq(projectMemberships.userId, user.id), eq(projects.isActive, true)))
              .orderBy(asc(projects.name));
      return { projects: rows };
    },
  );
};
