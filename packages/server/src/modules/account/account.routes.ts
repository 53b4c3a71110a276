import {
  currentUserSchema,
  emailChangeSchema,
  errorBodySchema,
  MESSAGES,
  messageSchema,
  passwordChangeSchema,
  passwordProblems,
  profileUpdateSchema,
  weakPasswordMessage,
} from '@portal/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessions, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { confirmPassword } from '../../plugins/password-confirmation.js';
import { issueSession, requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { findUserById } from '../auth/users.repository.js';
import { presentUser } from '../users/users.service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 422: errorBodySchema };

/** My Account (issue 4): profile, password and email of the signed-in user. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.put(
    '/api/user/profile',
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['account'],
        summary: 'Change my first and last name',
        body: profileUpdateSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const now = app.clock.now();
      const [updated] = await db.transaction(async (tx) => {
        const rows = await tx
          .update(users)
          .set({ firstName: request.body.first_name, lastName: request.body.last_name, updatedAt: now })
          .where(eq(users.id, user.id))
          .returning();
        await recordAudit(tx, {
          action: 'user.profile_updated',
          actorUserId: user.id,
          subjectType: 'user',
          subjectId: user.id,
          data: {
            changes: changes(
              { first_name: user.firstName, last_name: user.lastName },
              { first_name: rows[0]!.firstName, last_name: rows[0]!.lastName },
            ),
          },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        return rows;
      });
      return presentUser(updated!);
    },
  );

  app.put(
    '/api/user/password',
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['account'],
        summary: 'Change my password; my other sessions end',
        body: passwordChangeSchema,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const body = request.body;
      const current = (await findUserById(db, user.id))!;
      if (
        !current.passwordHash ||
        !(await verifyPassword(current.passwordHash, body.current_password).catch(() => false))
      ) {
        throw new AppError('UNPROCESSABLE', 'The current password is incorrect.', {
          current_password: ['The current password is incorrect.'],
        });
      }
      if (body.password !== body.password_confirmation) {
        throw new AppError('UNPROCESSABLE', MESSAGES.resetMismatch, {
          password_confirmation: [MESSAGES.resetMismatch],
        });
      }
      const problems = passwordProblems(body.password, {
        userInputs: [current.username, current.email.split('@')[0]!, current.firstName, current.lastName].filter(
          Boolean,
        ),
      });
      if (problems.length) {
        const message = weakPasswordMessage(problems);
        throw new AppError('UNPROCESSABLE', message, { password: [message] });
      }
      if (body.password === body.current_password) {
        throw new AppError('UNPROCESSABLE', MESSAGES.resetSamePassword, { password: [MESSAGES.resetSamePassword] });
      }
      const now = app.clock.now();
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
          .where(eq(users.id, user.id));
        await tx
          .delete(sessions)
          .where(and(eq(sessions.userId, user.id), ne(sessions.idHash, request.session!.idHash)));
        await recordAudit(tx, {
          action: 'user.password_changed',
          actorUserId: user.id,
          subjectType: 'user',
          subjectId: user.id,
          // Named only: neither password nor hash is ever recorded.
          data: { changes: changes({ password: current.passwordHash }, { password: passwordHash }) },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        await app.mailer.queue(tx, {
          to: current.email,
          subject: 'Your password was changed',
          template: 'password_changed',
          text: `Hello ${current.firstName || current.username},\n\nThe password of your Healthcare Quality Portal account was changed on ${now.toUTCString()}. Your other signed-in sessions were ended.\n\nIf this was not you, contact your administrator at once.\n`,
          at: now,
        });
      });
      // New ids for this session too (DESIGN section 3: rotate at privilege change), keeping its absolute expiry.
      await issueSession(app, request, reply, { userId: user.id, now, expiresAt: request.session!.expiresAt });
      return { message: 'Your password has been changed. Your other sessions were signed out.' };
    },
  );

  app.put(
    '/api/user/email',
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['account'],
        summary: 'Change my email address (needs my password)',
        body: emailChangeSchema,
        response: { 200: currentUserSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await confirmPassword(app, request, request.body.password);
      const email = request.body.email;
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${email} and ${users.id} <> ${user.id}`);
      if (taken)
        throw new AppError('UNPROCESSABLE', 'This email address is already in use.', {
          email: ['This email address is already in use.'],
        });
      const previous = user.email;
      const now = app.clock.now();
      const [updated] = await db.transaction(async (tx) => {
        const rows = await tx.update(users).set({ email, updatedAt: now }).where(eq(users.id, user.id)).returning();
        await recordAudit(tx, {
          action: 'user.email_changed',
          actorUserId: user.id,
          subjectType: 'user',
          subjectId: user.id,
          data: { from: previous, to: email, changes: changes({ email: previous }, { email }) },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        if (previous.toLowerCase() !== email) {
          // The old address hears of it: a stolen session cannot quietly take the account over.
          await app.mailer.queue(tx, {
            to: previous,
            subject: 'Your email address was changed',
            template: 'email_changed',
            text: `Hello ${user.firstName || user.username},\n\nThe email address of your Healthcare Quality Portal account was changed to ${email}.\n\nIf this was not you, contact your administrator at once.\n`,
            at: now,
          });
        }
        return rows;
      });
      return presentUser(updated!);
    },
  );
};
