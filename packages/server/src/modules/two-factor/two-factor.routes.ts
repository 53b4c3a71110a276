import {
  errorBodySchema,
  MESSAGES,
  passwordConfirmSchema,
  recoveryCodesSchema,
  twoFactorCodeSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { encrypt } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { newRecoveryCodes, newTotpSecret, otpauthUrl, qrSvg } from '../../lib/totp.js';
import { requireRecentPassword } from '../../plugins/password-confirmation.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { acceptTotp } from '../auth/login.service.js';
import { findUserById } from '../auth/users.repository.js';
import { twoFactorPolicyFor } from './two-factor.service.js';

/**
 * Two-factor setup in the spirit of Laravel Fortify: enable (secret stored encrypted, not yet on), confirm with a
 * code (only then on, recovery codes shown once), regenerate codes and disable. All four need a sign-in or the password
 * within the last 10 minutes (plugins/password-confirmation.ts): a stolen session alone can neither enrol an
 * authenticator of its own nor remove the owner's.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const config = { mfaExempt: true };
  const errors = { 401: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema, 423: errorBodySchema };

  app.get(
    '/api/two-factor',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'My two-factor status',
        response: { 200: twoFactorStatusSchema, ...errors },
      },
      config: { ...config, access: access.signedIn },
    },
    async (request) => {
      const user = (await findUserById(db, requireUser(request).id))!;
      const policy = await twoFactorPolicyFor(db, app.config, user, app.clock.now());
      return {
        enabled: user.twoFactorConfirmedAt !== null,
        pending: user.twoFactorSecret !== null && user.twoFactorConfirmedAt === null,
        confirmed_at: user.twoFactorConfirmedAt?.toISOString() ?? null,
        recovery_codes_remaining: user.twoFactorRecoveryCodes?.length ?? 0,
        required: policy.required,
        grace_days_remaining: policy.graceDaysRemaining,
      };
    },
  );

  app.post(
    '/api/two-factor/enable',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Start setup: a new secret, as a QR code and as text; needs a recent sign-in or the password',
        body: passwordConfirmSchema.nullish(),
        response: { 200: twoFactorSetupSchema, ...errors },
      },
      config: { ...config, access: access.signedIn },
    },
    async (request) => {
      const user = requireUser(request);
      if (user.twoFactorConfirmedAt)
        throw new AppError(
          'CONFLICT',
          'Two-factor authentication is already on. Turn it off first to set up a new device.',
        );
      await requireRecentPassword(app, request, request.body?.password);
      const secret = newTotpSecret();
      await db
        .update(users)
        .set({ twoFactorSecret: encrypt(secret, app.appKey), twoFactorRecoveryCodes: null })
        .where(eq(users.id, user.id));
      const url = otpauthUrl(secret, user.username);
      return { secret, otpauth_url: url, qr_svg: await qrSvg(url) };
    },
  );

  app.post(
    '/api/two-factor/confirm',
    {
      schema: {
        tags: ['two-factor'],
        summary:
          'Turn two-factor on with a code from the app; answers the recovery codes once; needs a recent sign-in or the password',
        body: twoFactorCodeSchema.extend(passwordConfirmSchema.shape),
        response: { 200: recoveryCodesSchema, ...errors },
      },
      config: { ...config, access: access.signedIn },
    },
    async (request) => {
      const user = (await findUserById(db, requireUser(request).id))!;
      if (user.twoFactorConfirmedAt) throw new AppError('CONFLICT', 'Two-factor authentication is already on.');
      if (!user.twoFactorSecret) throw new AppError('CONFLICT', 'Start the setup first.');
      // Asked before the code is checked, so a refused request never uses up the app's code.
      await requireRecentPassword(app, request, request.body.password);
      if (!(await acceptTotp({ db, appKey: app.appKey }, user, request.body.code, app.clock.now()))) {
        throw new AppError('UNPROCESSABLE', MESSAGES.invalidCode, { code: [MESSAGES.invalidCode] });
      }
      const { codes, hashes } = await newRecoveryCodes();
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ twoFactorConfirmedAt: app.clock.now(), twoFactorRecoveryCodes: hashes })
          .where(eq(users.id, user.id));
        await recordAudit(tx, {
          action: 'two_factor.enable',
          actorUserId: user.id,
          subjectType: 'user',
          subjectId: user.id,
          // The recovery codes are named only.
          data: {
            changes: changes(
              { two_factor: false, recovery_codes: user.twoFactorRecoveryCodes },
              { two_factor: true, recovery_codes: hashes },
              { secret: ['recovery_codes'] },
            ),
          },
          ip: request.ip,
          requestId: request.id,
          at: app.clock.now(),
        });
      });
      return { recovery_codes: codes };
    },
  );

  app.post(
    '/api/two-factor/recovery-codes',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'New recovery codes (the old ones stop working); needs a recent sign-in or the password',
        body: passwordConfirmSchema,
        response: { 200: recoveryCodesSchema, ...errors },
      },
      config: { ...config, access: access.signedIn },
    },
    async (request) => {
      const user = requireUser(request);
      await requireRecentPassword(app, request, request.body.password);
      if (!user.twoFactorConfirmedAt) throw new AppError('CONFLICT', 'Two-factor authentication is not on.');
      const { codes, hashes } = await newRecoveryCodes();
      await db.transaction(async (tx) => {
        await tx.update(users).set({ twoFactorRecoveryCodes: hashes }).where(eq(users.id, user.id));
        await recordAudit(tx, {
          action: 'two_factor.recovery_codes_regenerated',
          actorUserId: user.id,
          subjectType: 'user',
          subjectId: user.id,
          data: { changes: { recovery_codes: { changed: true } } },
          ip: request.ip,
          requestId: request.id,
          at: app.clock.now(),
        });
      });
      return { recovery_codes: codes };
    },
  );

  app.delete(
    '/api/two-factor',
    {
      schema: {
        tags: ['two-factor'],
        summary: 'Turn two-factor off; needs a recent sign-in or the password',
        body: passwordConfirmSchema.optional(),
        response: { 204: z.undefined(), ...errors },
      },
      config: { ...config, access: access.signedIn },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await requireRecentPassword(app, request, request.body?.password);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({
            twoFactorSecret: null,
            twoFactorConfirmedAt: null,
            twoFactorRecoveryCodes: null,
            twoFactorLastStep: null,
          })
          .where(eq(users.id, user.id));
        await recordAudit(tx, {
          action: 'two_factor.disable',
          actorUserId: user.id,
          subjectType: 'user',
          subjectId: user.id,
          // The secret is named only.
          data: {
            changes: {
              ...changes({ two_factor: user.twoFactorConfirmedAt !== null }, { two_factor: false }),
              ...(user.twoFactorConfirmedAt ? { two_factor_secret: { changed: true } } : {}),
            },
          },
          ip: request.ip,
          requestId: request.id,
          at: app.clock.now(),
        });
      });
      return reply.status(204).send();
    },
  );
};
