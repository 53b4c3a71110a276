import { emailLogDetailSchema, emailLogListSchema, emailLogQuerySchema } from '@portal/shared';
import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailLog, projects } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { AppError, notFound } from '../../lib/errors.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { escapeLike } from './search.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const emailParams = z.object({
  emailId: z
    .string()
    .regex(/^\d{1,15}$/, 'The email id is 1 to 15 digits.')
    .transform(Number),
});

type Row = { entry: typeof emailLog.$inferSelect; project: { id: number; name: string } | null };
const present = ({ entry, project }: Row) => ({
  id: entry.id,
  to: entry.toAddress,
  subject: entry.subject,
  template: entry.template,
  status: entry.status as 'queued' | 'sent' | 'failed' | 'logged',
  error: entry.error,
  attempts: entry.attempts,
  project: project?.id ? project : null,
  created_at: entry.createdAt.toISOString(),
  sent_at: entry.sentAt?.toISOString() ?? null,
});

/** Superadmin: every email the portal sent or tried to send, and resending a failed one. */
export const emailLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const superadmin = superadminOf;
  const select = () =>
    db
      .select({ entry: emailLog, project: { id: projects.id, name: projects.name } })
      .from(emailLog)
      .leftJoin(projects, eq(projects.id, emailLog.projectId));
  const one = async (id: number) => {
    const [row] = await select().where(eq(emailLog.id, id));
    if (!row) throw notFound('This email is not in the log.');
    return { ...present(row), body: row.entry.bodyText };
  };

  app.get(
    '/super/email-logs',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'The email log, newest first, filtered and paged',
        querystring: emailLogQuerySchema,
        response: { 200: emailLogListSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      const { q, status, project, page, page_size } = request.query;
      const filters: (SQL | undefined)[] = [];
      if (q) {
        const like = `%${escapeLike(q)}%`;
        filters.push(or(ilike(emailLog.toAddress, like), ilike(emailLog.subject, like)));
      }
      if (status) filters.push(eq(emailLog.status, status));
      if (project) filters.push(eq(emailLog.projectId, project));
      const where = and(...filters);
      const [total] = await db.select({ n: count() }).from(emailLog).where(where);
      const rows = await select()
        .where(where)
        .orderBy(desc(emailLog.createdAt), desc(emailLog.id))
        .limit(page_size)
        .offset((page - 1) * page_size);
      return { emails: rows.map(present), total: total?.n ?? 0, page, page_size };
    },
  );

  app.get(
    '/super/email-logs/:emailId',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'One email with its body',
        params: emailParams,
        response: { 200: emailLogDetailSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      return one(request.params.emailId);
    },
  );

  app.post(
    '/super/email-logs/:emailId/resend',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Send a failed email again',
        params: emailParams,
        response: { 200: emailLogDetailSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      const entry = await one(request.params.emailId);
      if (entry.status !== 'failed') throw new AppError('CONFLICT', 'Only a failed email can be sent again.');
      const now = app.clock.now();
      await recordAudit(db, {
        action: 'email.resend',
        projectId: entry.project?.id ?? null,
        actorUserId: user.id,
        subjectType: 'email',
        subjectId: entry.id,
        data: { to: entry.to, subject: entry.subject },
        ip: request.ip,
        requestId: request.id,
        at: now,
      });
      // A second failure is recorded on the entry; the answer shows it.
      await app.mailer.resend(entry.id, now).catch((error) => request.log.warn({ err: error }, 'resend failed'));
      return one(entry.id);
    },
  );
};
