import {
  logoUploadSchema,
  memberSchema,
  memberUpdateSchema,
  projectAdminDashboardSchema,
  projectDetailsSchema,
  projectDetailsUpdateSchema,
  userRequestCreateSchema,
  userRequestListSchema,
  userRequestSchema,
} from '@portal/shared';
import { and, count, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactMessages, userRequests } from '../../db/schema/index.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { projectAccess, requireProjectAdmin } from '../../policies/projects.js';
import { actorOf, getMember, listMembers, removeMember, updateMember } from '../members/members.service.js';
import { withNotices } from '../notifications/notices.js';
import {
  loadProjectDetails,
  removeLogo,
  replaceLogo,
  updateProjectDetails,
} from '../projects/project-details.service.js';
import { fileUserRequest, loadUserRequests } from '../superadmin/user-requests.service.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const memberParams = projectParams.extend({
  userId: pathId('user'),
});

/**
 * A project's Admin app (SPEC: /app/admin/{projectId}/...): its admins and superadmins manage members, file
 * new-user requests and edit the project's details. Outsiders get 404, simple members 403.
 */
export const projectAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  /** The signed-in admin and the project, or the 401/404/403 that stops the call. */
  async function admin(request: FastifyRequest & { params: { projectId: number } }) {
    const user = requireUser(request);
    const access = await projectAccess(db, user, request.params.projectId);
    requireProjectAdmin(access);
    return { user, projectId: access.project.id, project: access.project, actor: actorOf(request, user.id) };
  }

  app.get(
    '/api/projects/:projectId/admin/dashboard',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: 'Members, pending requests and unread contact messages',
        params: projectParams,
        response: { 200: projectAdminDashboardSchema, ...errors },
      },
    },
    async (request) => {
      const { projectId } = await admin(request);
      const [unread] = await db
        .select({ n: count() })
        .from(contactMessages)
        .where(and(eq(contactMessages.projectId, projectId), eq(contactMessages.status, 'unread')));
      return {
        members: await listMembers(db, projectId),
        pending_requests: await loadUserRequests(
          db,
          and(eq(userRequests.projectId, projectId), eq(userRequests.status, 'pending')),
        ),
        unread_contact_messages: unread?.n ?? 0,
      };
    },
  );

  app.get(
    '/api/projects/:projectId/admin/members/:userId',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: 'One member of the project',
        params: memberParams,
        response: { 200: memberSchema, ...errors },
      },
    },
    async (request) => {
      const { projectId } = await admin(request);
      return getMember(db, projectId, request.params.userId);
    },
  );

  app.patch(
    '/api/projects/:projectId/admin/members/:userId',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: "Change a member's project role and main roles",
        params: memberParams,
        body: memberUpdateSchema,
        response: { 200: memberSchema, ...errors },
      },
    },
    async (request) => {
      const { projectId, actor } = await admin(request);
      const now = app.clock.now();
      return withNotices(db, app.mailer, projectId, now, (tx, notices) =>
        updateMember(tx, projectId, request.params.userId, request.body, actor, now, notices),
      );
    },
  );

  app.delete(
    '/api/projects/:projectId/admin/members/:userId',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: 'Remove a member from the project (the account stays)',
        params: memberParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const { projectId, actor } = await admin(request);
      const now = app.clock.now();
      await withNotices(db, app.mailer, projectId, now, (tx, notices) =>
        removeMember(tx, projectId, request.params.userId, actor, now, notices),
      );
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/projects/:projectId/admin/user-requests',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: "This project's new-user requests and their status",
        params: projectParams,
        response: { 200: userRequestListSchema, ...errors },
      },
    },
    async (request) => {
      const { projectId } = await admin(request);
      return { requests: await loadUserRequests(db, eq(userRequests.projectId, projectId)) };
    },
  );

  app.post(
    '/api/projects/:projectId/admin/user-requests',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: 'Ask the superadmins for a new account; they are notified',
        params: projectParams,
        body: userRequestCreateSchema,
        response: { 201: userRequestSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { projectId, actor } = await admin(request);
      return reply.status(201).send(await fileUserRequest(db, actor, projectId, request.body, app.clock.now()));
    },
  );

  app.get(
    '/api/projects/:projectId/admin/details',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: "The project's details",
        params: projectParams,
        response: { 200: projectDetailsSchema, ...errors },
      },
    },
    async (request) => loadProjectDetails(db, (await admin(request)).projectId),
  );

  app.patch(
    '/api/projects/:projectId/admin/details',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: 'Edit name, facility details and contact email (active apps stay a superadmin decision)',
        params: projectParams,
        body: projectDetailsUpdateSchema,
        response: { 200: projectDetailsSchema, ...errors },
      },
    },
    async (request) => {
      const { projectId, actor } = await admin(request);
      await updateProjectDetails(db, projectId, request.body, actor, app.clock.now());
      return loadProjectDetails(db, projectId);
    },
  );

  app.put(
    '/api/projects/:projectId/admin/logo',
    {
      config: { access: access.projectAdmin },
      bodyLimit: 1024 * 1024,
      schema: {
        tags: ['project admin'],
        summary: "Replace the project's logo (PNG, JPEG or WebP, at most 512 KB)",
        params: projectParams,
        body: logoUploadSchema,
        response: { 200: projectDetailsSchema, ...errors },
      },
    },
    async (request) => {
      const { projectId, actor } = await admin(request);
      await replaceLogo(db, projectId, request.body, actor, app.clock.now());
      return loadProjectDetails(db, projectId);
    },
  );

  app.delete(
    '/api/projects/:projectId/admin/logo',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['project admin'],
        summary: "Remove the project's logo",
        params: projectParams,
        response: { 200: projectDetailsSchema, ...errors },
      },
    },
    async (request) => {
      const { projectId, actor } = await admin(request);
      await removeLogo(db, projectId, actor, app.clock.now());
      return loadProjectDetails(db, projectId);
    },
  );
};
