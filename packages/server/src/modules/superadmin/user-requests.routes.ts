import {
  userRequestApproveSchema,
  userRequestListQuerySchema,
  userRequestListSchema,
  userRequestRejectSchema,
  userRequestSchema,
} from '@portal/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { projectMemberships, projects, userRequests, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { AppError, notFound } from '../../lib/errors.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { writeMainRoles } from '../members/members.service.js';
import { notify } from '../notifications/notifications.service.js';
import { invitationMail, issuePasswordLink } from './invitations.js';
import { assertUnique } from './super-users.service.js';
import { loadUserRequest, loadUserRequests, requestPageFor, usernameFor } from './user-requests.service.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const requestParams = z.object({
  requestId: z
    .string()
    .regex(/^\d{1,9}$/, 'The request id is 1 to 9 digits.')
    .transform(Number),
});

/** Superadmin: the new-user requests project admins file (the filing side is in modules/project-admin). */
export const userRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const superadmin = superadminOf;

  async function lockPending(tx: DbOrTx, id: number) {
    const [row] = await tx.select().from(userRequests).where(eq(userRequests.id, id)).for('update');
    if (!row) throw notFound('Request not found.');
    if (row.status !== 'pending') throw new AppError('CONFLICT', `This request was already ${row.status}.`);
    const [project] = await tx.select().from(projects).where(eq(projects.id, row.projectId));
    return { row, project: project! };
  }

  app.get(
    '/super/user-requests',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'New-user requests by status',
        querystring: userRequestListQuerySchema,
        response: { 200: userRequestListSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      const { status } = request.query;
      return { requests: await loadUserRequests(db, status === 'all' ? undefined : eq(userRequests.status, status)) };
    },
  );

  app.post(
    '/super/user-requests/:requestId/approve',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Approve: create (or reuse) the account, add it to the project, send the invitation',
        params: requestParams,
        body: userRequestApproveSchema,
        response: { 200: userRequestSchema, ...errors },
      },
    },
    async (request) => {
      const actor = superadmin(request);
      const now = app.clock.now();
      const row = await db.transaction(async (tx) => {
        const { row, project } = await lockPending(tx, request.params.requestId);
        const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${row.email.toLowerCase()}`);
        let user = existing;
        let link: string | null = null;
        if (!user) {
          const username = request.body.username ?? (await usernameFor(tx, row.email));
          await assertUnique(tx, { username });
          [user] = await tx
            .insert(users)
            .values({
              email: row.email,
              username,
              firstName: row.firstName,
              lastName: row.lastName,
              status: 'invited',
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          link = await issuePasswordLink(tx, {
            userId: user!.id,
            email: user!.email,
            purpose: 'invitation',
            now,
            appUrl: app.config.APP_URL,
          });
        }
        await tx
          .insert(projectMemberships)
          .values({ projectId: row.projectId, userId: user!.id, projectRole: row.projectRole, createdAt: now })
          .onConflictDoNothing();
        // A new member holds no department roles: the pruning has nothing to drop, so no notices.
        await writeMainRoles(
          tx,
          row.projectId,
          user!.id,
          row.mainRoles,
          { userId: actor.id, ip: request.ip, requestId: request.id },
          now,
        );
        await tx
          .update(userRequests)
          .set({ status: 'approved', decidedBy: actor.id, decidedAt: now, userId: user!.id })
          .where(eq(userRequests.id, row.id));
        await recordAudit(tx, {
          action: 'user_request.approve',
          projectId: row.projectId,
          actorUserId: actor.id,
          subjectType: 'user_request',
          subjectId: row.id,
          data: { user_id: user!.id, created_account: !existing },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        // The person and the admin who asked are told in the approval's own transaction (the outbox).
        await app.mailer.queue(tx, {
          ...(link
            ? { ...invitationMail(user!, link, project.name), projectId: project.id }
            : {
                to: user!.email,
                subject: `You now have access to ${project.name}`,
                template: 'project_access_granted',
                projectId: project.id,
                text: `Hello ${user!.firstName || user!.username},\n\nYou were added to ${project.name} on the Healthcare Quality Portal. Sign in as usual to open it.\n`,
              }),
          at: now,
        });
        if (row.requestedBy) {
          await notify(tx, {
            userIds: [row.requestedBy],
            projectId: row.projectId,
            message: `Your request for ${row.firstName} ${row.lastName} was approved.`,
            link: await requestPageFor(tx, row.projectId, row.requestedBy, row.mainRoles),
            now,
          });
        }
        return row;
      });
      return (await loadUserRequest(db, row.id))!;
    },
  );

  app.post(
    '/super/user-requests/:requestId/reject',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Reject with a reason, emailed to the admin who asked',
        params: requestParams,
        body: userRequestRejectSchema,
        response: { 200: userRequestSchema, ...errors },
      },
    },
    async (request) => {
      const actor = superadmin(request);
      const { reason } = request.body;
      const now = app.clock.now();
      const row = await db.transaction(async (tx) => {
        const locked = await lockPending(tx, request.params.requestId);
        await tx
          .update(userRequests)
          .set({ status: 'rejected', decidedBy: actor.id, decidedAt: now, rejectionReason: reason })
          .where(eq(userRequests.id, locked.row.id));
        await recordAudit(tx, {
          action: 'user_request.reject',
          projectId: locked.row.projectId,
          actorUserId: actor.id,
          subjectType: 'user_request',
          subjectId: locked.row.id,
          data: { reason },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        const { row, project } = locked;
        const [asker] = row.requestedBy ? await tx.select().from(users).where(eq(users.id, row.requestedBy)) : [];
        if (asker) {
          await app.mailer.queue(tx, {
            to: asker.email,
            subject: `Your request for ${row.firstName} ${row.lastName} was not approved`,
            template: 'user_request_rejected',
            projectId: project.id,
            text: `Hello ${asker.firstName || asker.username},\n\nYour request for a ${project.name} account for ${row.firstName} ${row.lastName} <${row.email}> was not approved.\n\nReason: ${reason}\n`,
            at: now,
          });
          await notify(tx, {
            userIds: [asker.id],
            projectId: row.projectId,
            message: `Your request for ${row.firstName} ${row.lastName} was rejected: ${reason}`,
            link: await requestPageFor(tx, row.projectId, asker.id, row.mainRoles),
            now,
          });
        }
        return row;
      });
      return (await loadUserRequest(db, row.id))!;
    },
  );
};
