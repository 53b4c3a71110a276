import { type EMAIL_STATUSES, emailLogDetailSchema, emailLogListSchema, emailLogQuerySchema } from '@portal/shared';
import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { emailLog, passwordResetTokens, projects } from '../../db/schema/index.js';
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

type EmailStatus = (typeof EMAIL_STATUSES)[number];
type Row = { entry: typeof emailLog.$inferSelect; project: { id: number; name: string } | null };
const present = ({ entry, project }: Row) => ({
  id: entry.id,
  to: entry.toAddress,
  subject: entry.subject,
  template: entry.template,
  status: entry.status as EmailStatus,
  error: entry.error,
  attempts: entry.attempts,
  project: project?.id ? project : null,
  created_at: entry.createdAt.toISOString(),
  sent_at: entry.sentAt?.toISOString() ?? null,
  next_attempt_at: entry.status === 'queued' ? (entry.nextAttemptAt?.toISOString() ?? null) : null,
});

/** What became of the set-password link the log keeps only as its token's hash. */
async function linkState(db: DbOrTx, tokenHash: string | null, now: Date) {
  if (!tokenHash) return null;
  const [token] = await db
    .select({ usedAt: passwordResetTokens.usedAt, expiresAt: passwordResetTokens.expiresAt })
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, tokenHash));
  // Gone: the account was deleted, or the token was replaced (a newer link voids the older ones, marking them used).
  if (!token) return { state: 'replaced' as const, at: null };
  if (token.usedAt) return { state: 'used' as const, at: token.usedAt.toISOString() };
  if (token.expiresAt <= now) return { state: 'expired' as const, at: token.expiresAt.toISOString() };
  return { state: 'unused' as const, at: token.expiresAt.toISOString() };
}

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
  const load = async (id: number) => {
    const [row] = await select().where(eq(emailLog.id, id));
    if (!row) throw notFound('This email is not in the log.');
    return row;
  };
  const detail = async (row: Row) => ({
    ...present(row),
    body: row.entry.bodyText,
    link: await linkState(db, row.entry.linkTokenHash, app.clock.now()),
  });
  /** Reading someone's mail, and sending it again, are on the record. */
  const audit = (
    request: FastifyRequest,
    actorUserId: number,
    { entry }: Row,
    action: 'email.body_viewed' | 'email.resend',
  ) =>
    recordAudit(db, {
      action,
      projectId: entry.projectId,
      actorUserId,
      subjectType: 'email',
      subjectId: entry.id,
      data: { to: entry.toAddress, subject: entry.subject },
      ip: request.ip,
      requestId: request.id,
      at: app.clock.now(),
    });

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
      const user = superadmin(request);
      const row = await load(request.params.emailId);
      await audit(request, user.id, row, 'email.body_viewed');
      return detail(row);
    },
  );

  app.post(
    '/super/email-logs/:emailId/resend',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Queue a failed email to be sent again',
        params: emailParams,
        response: { 200: emailLogDetailSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      const row = await load(request.params.emailId);
      if (row.entry.status !== 'failed') throw new AppError('CONFLICT', 'Only a failed email can be sent again.');
      if (row.entry.linkTokenHash && !row.entry.sealedBody) {
        throw new AppError(
          'CONFLICT',
          'Its set-password link is no longer kept, so it cannot be sent again. Send the person a new invitation or password reset instead.',
        );
      }
      await audit(request, user.id, row, 'email.resend');
      // Queued again: the delivery worker sends it with its tries and backoff; the log shows how it goes.
      await app.mailer.resend(row.entry.id, app.clock.now());
      return detail(await load(row.entry.id));
    },
  );
};
