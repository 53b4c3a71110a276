import {
  APP_CODES,
  logoUploadSchema,
  memberAddSchema,
  memberListSchema,
  memberSchema,
  memberUpdateSchema,
  superProjectCreateSchema,
  superProjectDetailSchema,
  superProjectListQuerySchema,
  superProjectListSchema,
  superProjectUpdateSchema,
} from '@portal/shared';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { projects } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { AppError, notFound } from '../../lib/errors.js';
import { pathId } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { actorOf, addMember, listMembers, removeMember, updateMember } from '../members/members.service.js';
import { withNotices } from '../notifications/notices.js';
import { logoUrl, projectRoleOf, removeLogo, replaceLogo } from '../projects/project-details.service.js';
import { escapeLike } from './search.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
// Superadmin routes read projects directly (no projectAccess, which answers 404 past INT4_MAX): bounded here.
const projectParams = z.object({ projectId: pathId('project') });
const memberParams = projectParams.extend({ userId: pathId('user') });
const activeApps = (apps: string[]) => APP_CODES.filter((code) => apps.includes(code));

type ProjectRow = typeof projects.$inferSelect;

const memberCount = sql<number>`(select count(*)::int from project_memberships pm where pm.project_id = "projects"."id")`;

const presentRow = (project: ProjectRow, members: number) => ({
  id: project.id,
  name: project.name,
  slug: project.slug,
  active_apps: activeApps(project.activeApps),
  facility_name: project.facilityName,
  is_active: project.isActive,
  member_count: members,
  created_at: project.createdAt.toISOString(),
});

export async function loadProjectDetail(db: DbOrTx, projectId: number, viewerId: number) {
  const [row] = await db
    .select({ project: projects, members: memberCount })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!row) throw notFound('Project not found.');
  const { project } = row;
  return {
    ...presentRow(project, row.members),
    address: project.address,
    phone: project.phone,
    email: project.email,
    logo_url: logoUrl(project),
    project_role: await projectRoleOf(db, project.id, viewerId),
    updated_at: project.updatedAt.toISOString(),
  };
}

const slugTaken = () =>
  new AppError('CONFLICT', 'This slug is already used by another project.', {
    slug: ['This slug is already used by another project.'],
  });
const isUniqueViolation = (error: unknown) =>
  (error as { cause?: { code?: string } })?.cause?.code === '23505' || (error as { code?: string })?.code === '23505';

/** Superadmin: every project, its details, apps, logo and members (docs/administration.md). */
export const superProjectRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const superadmin = superadminOf;

  app.get(
    '/super/projects',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Every project, active or not, searched and paged',
        querystring: superProjectListQuerySchema,
        response: { 200: superProjectListSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      const { q, status, page, page_size } = request.query;
      const filters: (SQL | undefined)[] = [];
      if (status !== 'all') filters.push(eq(projects.isActive, status === 'active'));
      if (q) {
        const like = `%${escapeLike(q)}%`;
        filters.push(or(ilike(projects.name, like), ilike(projects.slug, like), ilike(projects.facilityName, like)));
      }
      const where = and(...filters);
      const [total] = await db.select({ n: count() }).from(projects).where(where);
      const rows = await db
        .select({ project: projects, members: memberCount })
        .from(projects)
        .where(where)
        .orderBy(asc(sql`lower(${projects.name})`), asc(projects.id))
        .limit(page_size)
        .offset((page - 1) * page_size);
      return {
        projects: rows.map((row) => presentRow(row.project, row.members)),
        total: total?.n ?? 0,
        page,
        page_size,
      };
    },
  );

  app.post(
    '/super/projects',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Create a project',
        body: superProjectCreateSchema,
        response: { 201: superProjectDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = superadmin(request);
      const body = request.body;
      const now = app.clock.now();
      const id = await db
        .transaction(async (tx) => {
          const [created] = await tx
            .insert(projects)
            .values({
              name: body.name,
              slug: body.slug,
              facilityName: body.facility_name,
              address: body.address,
              phone: body.phone,
              email: body.email,
              activeApps: body.active_apps,
              createdAt: now,
              updatedAt: now,
            })
            .returning({ id: projects.id });
          await recordAudit(tx, {
            action: 'project.create',
            projectId: created!.id,
            actorUserId: user.id,
            subjectType: 'project',
            subjectId: created!.id,
            data: { ...body },
            ip: request.ip,
            requestId: request.id,
            at: now,
          });
          return created!.id;
        })
        .catch((error) => {
          throw isUniqueViolation(error) ? slugTaken() : error;
        });
      return reply.status(201).send(await loadProjectDetail(db, id, user.id));
    },
  );

  app.get(
    '/super/projects/:projectId',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'One project with its details',
        params: projectParams,
        response: { 200: superProjectDetailSchema, ...errors },
      },
    },
    async (request) => loadProjectDetail(db, request.params.projectId, superadmin(request).id),
  );

  app.patch(
    '/super/projects/:projectId',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Edit a project, set its apps, deactivate or reactivate it (never deleted)',
        params: projectParams,
        body: superProjectUpdateSchema,
        response: { 200: superProjectDetailSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      const { projectId } = request.params;
      const body = request.body;
      const now = app.clock.now();
      await db
        .transaction(async (tx) => {
          const [before] = await tx.select().from(projects).where(eq(projects.id, projectId)).for('update');
          if (!before) throw notFound('Project not found.');
          await tx
            .update(projects)
            .set({
              name: body.name,
              slug: body.slug,
              facilityName: body.facility_name,
              address: body.address,
              phone: body.phone,
              email: body.email,
              activeApps: body.active_apps,
              isActive: body.is_active,
              updatedAt: now,
            })
            .where(eq(projects.id, projectId));
          const action =
            body.is_active === false && before.isActive
              ? 'project.deactivate'
              : body.is_active === true && !before.isActive
                ? 'project.reactivate'
                : 'project.update';
          await recordAudit(tx, {
            action,
            projectId,
            actorUserId: user.id,
            subjectType: 'project',
            subjectId: projectId,
            data: {
              changes: changes(
                {
                  name: before.name,
                  slug: before.slug,
                  facility_name: before.facilityName,
                  address: before.address,
                  phone: before.phone,
                  email: before.email,
                  active_apps: before.activeApps,
                  is_active: before.isActive,
                },
                body,
              ),
            },
            ip: request.ip,
            requestId: request.id,
            at: now,
          });
        })
        .catch((error) => {
          throw isUniqueViolation(error) ? slugTaken() : error;
        });
      return loadProjectDetail(db, projectId, user.id);
    },
  );

  app.put(
    '/super/projects/:projectId/logo',
    {
      config: { access: access.superadmin },
      bodyLimit: 1024 * 1024,
      schema: {
        tags: ['superadmin'],
        summary: "Replace a project's logo (PNG, JPEG or WebP, at most 512 KB)",
        params: projectParams,
        body: logoUploadSchema,
        response: { 200: superProjectDetailSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      await replaceLogo(db, request.params.projectId, request.body, actorOf(request, user.id), app.clock.now());
      return loadProjectDetail(db, request.params.projectId, user.id);
    },
  );

  app.delete(
    '/super/projects/:projectId/logo',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: "Remove a project's logo",
        params: projectParams,
        response: { 200: superProjectDetailSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      await removeLogo(db, request.params.projectId, actorOf(request, user.id), app.clock.now());
      return loadProjectDetail(db, request.params.projectId, user.id);
    },
  );

  const requireProject = async (projectId: number) => {
    const [row] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId));
    if (!row) throw notFound('Project not found.');
  };

  app.get(
    '/super/projects/:projectId/members',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'The members of a project with their roles',
        params: projectParams,
        response: { 200: memberListSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      await requireProject(request.params.projectId);
      return { members: await listMembers(db, request.params.projectId) };
    },
  );

  app.post(
    '/super/projects/:projectId/members',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Add an existing user to a project',
        params: projectParams,
        body: memberAddSchema,
        response: { 201: memberSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = superadmin(request);
      await requireProject(request.params.projectId);
      const { projectId } = request.params;
      const now = app.clock.now();
      const member = await withNotices(db, app.mailer, projectId, now, (tx, notices) =>
        addMember(tx, projectId, request.body, actorOf(request, user.id), now, notices),
      );
      return reply.status(201).send(member);
    },
  );

  app.patch(
    '/super/projects/:projectId/members/:userId',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: "Change a member's project role and main roles",
        params: memberParams,
        body: memberUpdateSchema,
        response: { 200: memberSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      const { projectId, userId } = request.params;
      const now = app.clock.now();
      return withNotices(db, app.mailer, projectId, now, (tx, notices) =>
        updateMember(tx, projectId, userId, request.body, actorOf(request, user.id), now, notices),
      );
    },
  );

  app.delete(
    '/super/projects/:projectId/members/:userId',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Remove a member from a project',
        params: memberParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const user = superadmin(request);
      const { projectId, userId } = request.params;
      const now = app.clock.now();
      await withNotices(db, app.mailer, projectId, now, (tx, notices) =>
        removeMember(tx, projectId, userId, actorOf(request, user.id), now, notices),
      );
      return reply.status(204).send();
    },
  );
};
