import {
  type ContactMessage,
  contactInboxQuerySchema,
  contactMessageCreateSchema,
  contactMessageListSchema,
  contactMessageSchema,
  contactMessageUpdateSchema,
  contactReplySchema,
  errorBodySchema,
  INT4_MAX,
  PROJECT_ID_PATTERN,
} from '@portal/shared';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { contactMessages, projectMemberships } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { isProjectAdmin, type ProjectAccess, projectAccess } from '../../policies/projects.js';
import { notify } from '../notifications/notifications.service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const projectId = z.string().regex(PROJECT_ID_PATTERN, 'The project id is 1 to 10 digits.').transform(Number);
const messageId = z.coerce.number().int().positive().max(INT4_MAX);

type Row = typeof contactMessages.$inferSelect;
const present = (row: Row): ContactMessage => ({
  id: row.id,
  subject: row.subject,
  message: row.message,
  status: row.status as ContactMessage['status'],
  created_at: row.createdAt.toISOString(),
  sender: { id: row.senderId, name: row.senderName, email: row.senderEmail },
  replied_at: row.repliedAt?.toISOString() ?? null,
});

function requireAdmin(access: ProjectAccess): void {
  if (!isProjectAdmin(access))
    throw new AppError('FORBIDDEN', 'Only project administrators can read contact messages.');
}

/** Contact Us (issue 4): members write to their project's admins, who read, archive and reply by email. */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.post(
    '/api/projects/:projectId/contact-us',
    {
      config: { access: access.project() },
      schema: {
        tags: ['contact'],
        summary: 'Write to the project administrators',
        params: z.object({ projectId }),
        body: contactMessageCreateSchema,
        response: { 201: z.object({ id: z.number().int() }), ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const access = await projectAccess(db, user, request.params.projectId);
      const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
      const now = app.clock.now();
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(contactMessages)
          .values({
            projectId: access.project.id,
            senderId: user.id,
            senderName: name,
            senderEmail: user.email,
            subject: request.body.subject,
            message: request.body.message,
            createdAt: now,
          })
          .returning();
        const admins = await tx
          .select({ userId: projectMemberships.userId })
          .from(projectMemberships)
          .where(and(eq(projectMemberships.projectId, access.project.id), eq(projectMemberships.projectRole, 'admin')));
        const recipientIds = admins.map((a) => a.userId).filter((id) => id !== user.id);
        // What was sent and to whom (the message itself stays in its table).
        await recordAudit(tx, {
          action: 'contact.message_sent',
          projectId: access.project.id,
          actorUserId: user.id,
          subjectType: 'contact_message',
          subjectId: row!.id,
          data: {
            subject: request.body.subject,
            sender_email: user.email,
            // The project's administrators (the sender left out).
            recipient_ids: recipientIds,
          },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        // The admins' bell notices and emails, in the transaction of the message.
        await notify(tx, {
          userIds: recipientIds,
          projectId: access.project.id,
          message: `New contact message from ${name}: ${request.body.subject}`,
          link: `/member/projects/${access.project.id}/contact-us-messages`,
          email: { mailer: app.mailer, subject: `[${access.project.name}] ${request.body.subject}` },
          now,
        });
        return row!.id;
      });
      return reply.status(201).send({ id });
    },
  );

  app.get(
    '/api/projects/:projectId/contact-us-messages',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['contact'],
        summary: "The project administrators' inbox or archive",
        params: z.object({ projectId }),
        querystring: contactInboxQuerySchema,
        response: { 200: contactMessageListSchema, ...errors },
      },
    },
    async (request) => {
      const access = await projectAccess(db, requireUser(request), request.params.projectId);
      requireAdmin(access);
      const inBox =
        request.query.box === 'archive'
          ? eq(contactMessages.status, 'archived')
          : ne(contactMessages.status, 'archived');
      const rows = await db
        .select()
        .from(contactMessages)
        .where(and(eq(contactMessages.projectId, access.project.id), inBox))
        .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
        .limit(200);
      const [counts] = await db
        .select({ unread: sql<number>`count(*)::int` })
        .from(contactMessages)
        .where(and(eq(contactMessages.projectId, access.project.id), eq(contactMessages.status, 'unread')));
      return { messages: rows.map(present), unread: counts?.unread ?? 0 };
    },
  );

  /** One message of this project, for its admins; 404 for another project's message. */
  async function loadMessage(access: ProjectAccess, id: number): Promise<Row> {
    const [row] = await db
      .select()
      .from(contactMessages)
      .where(and(eq(contactMessages.id, id), eq(contactMessages.projectId, access.project.id)));
    if (!row) throw notFound('Message not found.');
    return row;
  }

  /** The signed-in project admin, their access and the message of their project the path names. */
  async function openMessage(request: FastifyRequest & { params: { projectId: number; messageId: number } }) {
    const user = requireUser(request);
    const access = await projectAccess(db, user, request.params.projectId);
    requireAdmin(access);
    return { user, access, message: await loadMessage(access, request.params.messageId) };
  }

  /**
   * Changes the message and records `action` about it in the same transaction, with what `also` writes there (the
   * reply's email); the changed row.
   */
  function changeMessage(
    request: FastifyRequest,
    { user, access, message }: Awaited<ReturnType<typeof openMessage>>,
    set: Partial<typeof contactMessages.$inferInsert>,
    action: 'contact.message_status' | 'contact.message_replied',
    data: Record<string, unknown>,
    now: Date,
    also?: (tx: DbOrTx) => Promise<void>,
  ): Promise<Row> {
    return db.transaction(async (tx) => {
      const [row] = await tx.update(contactMessages).set(set).where(eq(contactMessages.id, message.id)).returning();
      await recordAudit(tx, {
        action,
        projectId: access.project.id,
        actorUserId: user.id,
        subjectType: 'contact_message',
        subjectId: message.id,
        data,
        ip: request.ip,
        requestId: request.id,
        at: now,
      });
      await also?.(tx);
      return row!;
    });
  }

  app.patch(
    '/api/projects/:projectId/contact-us-messages/:messageId',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['contact'],
        summary: 'Mark read or unread, archive or restore',
        params: z.object({ projectId, messageId }),
        body: contactMessageUpdateSchema,
        response: { 200: contactMessageSchema, ...errors },
      },
    },
    async (request) => {
      const opened = await openMessage(request);
      const { message } = opened;
      const { status } = request.body;
      const updated = await changeMessage(
        request,
        opened,
        { status },
        'contact.message_status',
        { from: message.status, to: status, changes: changes({ status: message.status }, { status }) },
        app.clock.now(),
      );
      return present(updated);
    },
  );

  app.post(
    '/api/projects/:projectId/contact-us-messages/:messageId/reply',
    {
      config: { access: access.projectAdmin },
      schema: {
        tags: ['contact'],
        summary: 'Reply to the sender by email',
        params: z.object({ projectId, messageId }),
        body: contactReplySchema,
        response: { 200: contactMessageSchema, ...errors },
      },
    },
    async (request) => {
      const opened = await openMessage(request);
      const { user, access, message } = opened;
      const now = app.clock.now();
      // The reply is queued in the transaction that marks the message replied: both or neither.
      const updated = await changeMessage(
        request,
        opened,
        { repliedAt: now, status: message.status === 'unread' ? 'read' : message.status },
        'contact.message_replied',
        { to: message.senderEmail, subject: `Re: ${message.subject}` },
        now,
        (tx) =>
          app.mailer.queue(tx, {
            to: message.senderEmail,
            subject: `Re: ${message.subject}`,
            template: 'contact_reply',
            projectId: access.project.id,
            text: `${request.body.message}\n\n-- \n${user.firstName} ${user.lastName}, ${access.project.name}\n\nYou wrote on ${message.createdAt.toUTCString()}:\n> ${message.message.split('\n').join('\n> ')}\n`,
            at: now,
          }),
      );
      return present(updated);
    },
  );
};
