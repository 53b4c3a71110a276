import {
  errorBodySchema,
  forgotPasswordSchema,
  MESSAGES,
  messageSchema,
  passwordProblems,
  resetPasswordSchema,
  weakPasswordMessage,
} from '@portal/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { passwordResetTokens, sessions, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { minutes } from '../../lib/clock.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { hitRateLimit } from '../../lib/rate-limit.js';
import { access } from '../../policies/access.js';

const TOKEN_TTL_MS = minutes(60);
// Every forgot answer takes at least this long, whether or not the account exists and an email goes out.
const FORGOT_MIN_MS = 400;

export const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const config = { mfaExempt: true };

  async function limit(key: string, max: number) {
    const result = await hitRateLimit(db, key, max, minutes(15), app.clock.now());
    if (!result.allowed)
      throw new AppError(
        'RATE_LIMITED',
        'Too many requests. Please try again later.',
        undefined,
        result.retryAfterSeconds,
      );
  }

  async function checkCaptcha(payload: string | undefined) {
    const result = await app.captcha.verify(payload, app.clock.now());
    if (result === 'missing') throw new AppError('UNPROCESSABLE', MESSAGES.captchaRequired);
    if (result === 'invalid')
      throw new AppError('UNPROCESSABLE', 'The captcha could not be verified. Please try again.');
  }

  app.post(
    '/password/forgot',
    {
      schema: {
        tags: ['auth'],
        summary: 'Email a password reset link (the answer is the same whether or not the account exists)',
        body: forgotPasswordSchema,
        response: { 200: messageSchema, 422: errorBodySchema, 429: errorBodySchema },
      },
      config: { ...config, access: access.public },
    },
    async (request) => {
      const started = Date.now();
      await checkCaptcha(request.body.captcha);
      await limit(`forgot:${request.ip}`, 10);
      const now = app.clock.now();
      const email = request.body.email.toLowerCase();
      const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
      if (user && user.status === 'active') {
        const token = randomToken(32);
        await db.transaction(async (tx) => {
          // A new request voids every older link.
          await tx
            .update(passwordResetTokens)
            .set({ usedAt: now })
            .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
          await tx.insert(passwordResetTokens).values({
            userId: user.id,
            tokenHash: sha256(token),
            createdAt: now,
            expiresAt: new Date(now.getTime() + TOKEN_TTL_MS),
          });
          await recordAudit(tx, {
            action: 'password.reset_requested',
            actorUserId: user.id,
            subjectType: 'user',
            subjectId: user.id,
            ip: request.ip,
            requestId: request.id,
            at: now,
          });
          // Queued with the token (the outbox): no SMTP time tells whether the account exists.
          const link = `${app.config.APP_URL}/reset-password?token=${token}&email=${encodeURIComponent(user.email)}`;
          await app.mailer.queue(tx, {
            to: user.email,
            subject: 'Reset your password',
            template: 'password_reset',
            text: `Hello ${user.firstName || user.username},\n\nSomeone asked to reset the password of your Healthcare Quality Portal account. To choose a new password, open this link within 60 minutes:\n\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.\n`,
            at: now,
          });
        });
      }
      const wait = FORGOT_MIN_MS - (Date.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return { message: MESSAGES.forgotSent };
    },
  );

  app.post(
    '/password/reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Choose a new password with a reset link; ends every session of the account',
        body: resetPasswordSchema,
        response: { 200: messageSchema, 422: errorBodySchema, 429: errorBodySchema },
      },
      config: { ...config, access: access.public },
    },
    async (request) => {
      const body = request.body;
      await checkCaptcha(body['g-recaptcha-response']);
      await limit(`reset:${request.ip}`, 20);
      if (body.password !== body.password_confirmation) {
        throw new AppError('UNPROCESSABLE', MESSAGES.resetMismatch, {
          password_confirmation: [MESSAGES.resetMismatch],
        });
      }
      const now = app.clock.now();
      const [row] = await db
        .select({ token: passwordResetTokens, user: users })
        .from(passwordResetTokens)
        .innerJoin(users, eq(users.id, passwordResetTokens.userId))
        .where(eq(passwordResetTokens.tokenHash, sha256(body.token.toLowerCase())));
      const valid =
        row &&
        !row.token.usedAt &&
        row.token.expiresAt > now &&
        row.user.email.toLowerCase() === body.email.toLowerCase() &&
        // An invited account chooses its first password with its invitation link.
        (row.user.status === 'active' || (row.user.status === 'invited' && row.token.purpose === 'invitation'));
      if (!valid) throw new AppError('UNPROCESSABLE', MESSAGES.resetInvalidToken);
      const { user, token } = row;
      // The account's own name and address do not make a strong password.
      const problems = passwordProblems(body.password, {
        userInputs: [user.username, user.email.split('@')[0]!, user.firstName, user.lastName].filter(Boolean),
      });
      if (problems.length) {
        const message = weakPasswordMessage(problems);
        throw new AppError('UNPROCESSABLE', message, { password: [message] });
      }
      if (user.passwordHash && (await verifyPassword(user.passwordHash, body.password).catch(() => false))) {
        throw new AppError('UNPROCESSABLE', MESSAGES.resetSamePassword, { password: [MESSAGES.resetSamePassword] });
      }
      const passwordHash = await hashPassword(body.password);
      const spent = await db.transaction(async (tx) => {
        // Spend the token first: of two requests with one link, only one gets past this.
        const used = await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(and(eq(passwordResetTokens.id, token.id), isNull(passwordResetTokens.usedAt)))
          .returning({ id: passwordResetTokens.id });
        if (!used.length) return false;
        await tx
          .update(users)
          .set({ passwordHash, passwordChangedAt: now, updatedAt: now, status: 'active' })
          .where(eq(users.id, user.id));
        await tx.delete(sessions).where(eq(sessions.userId, user.id));
        await recordAudit(tx, {
          action: user.status === 'invited' ? 'user.invitation_accepted' : 'password.reset_completed',
          actorUserId: user.id,
          subjectType: 'user',
          subjectId: user.id,
          // Named only: the password is never recorded.
          data: { changes: { password: { changed: true } } },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        if (user.status !== 'invited') {
          await app.mailer.queue(tx, {
            to: user.email,
            subject: 'Your password was changed',
            template: 'password_changed',
            text: `Hello ${user.firstName || user.username},\n\nThe password of your Healthcare Quality Portal account was changed on ${now.toUTCString()}, and every signed-in session was ended.\n\nIf this was not you, contact your administrator at once.\n`,
            at: now,
          });
        }
        return true;
      });
      if (!spent) throw new AppError('UNPROCESSABLE', MESSAGES.resetInvalidToken);
      if (user.status === 'invited') return { message: 'Your password is set. You can now sign in with it.' };
      return { message: 'Your password has been changed. You can now sign in with it.' };
    },
  );
};
