import { SIGNING_BATCH_MINUTES } from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { minutes } from '../../lib/clock.js';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto.js';
import { AppError } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { hitRateLimit } from '../../lib/rate-limit.js';
import { requireUser, updateSessionData } from '../../plugins/session.js';
import { acceptTotp } from '../auth/login.service.js';
import { findUserById } from '../auth/users.repository.js';
import type { Evidence } from './workflow.service.js';

/**
 * The re-authentication of an electronic signature (decision record 007): the signer's password, or a fresh code of
 * their authenticator app (a code is accepted once). At most 10 attempts per signer in 15 minutes.
 */

const ATTEMPTS = 10;
const WINDOW_MS = minutes(15);

export async function checkSignerCredentials(
  app: FastifyInstance,
  request: FastifyRequest,
  credentials: { password?: string | undefined; code?: string | undefined },
): Promise<'password' | 'totp'> {
  const sessionUser = requireUser(request);
  const now = app.clock.now();
  const limit = await hitRateLimit(app.database.db, `policy-sign:${sessionUser.id}`, ATTEMPTS, WINDOW_MS, now);
  if (!limit.allowed) {
    throw new AppError(
      'RATE_LIMITED',
      'Too many signing attempts. Wait a few minutes and try again.',
      undefined,
      limit.retryAfterSeconds,
    );
  }
  const user = await findUserById(app.database.db, sessionUser.id);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in again to sign.');
  if (credentials.code !== undefined) {
    if (!user.twoFactorSecret || !user.twoFactorConfirmedAt) {
      const message = 'Two-factor authentication is not set up for you: sign with your password.';
      throw new AppError('UNPROCESSABLE', message, { code: [message] });
    }
    if (!(await acceptTotp({ db: app.database.db, appKey: app.appKey }, user, credentials.code, now))) {
      const message = 'The code is not valid or was already used. Wait for the next code and try again.';
      throw new AppError('UNPROCESSABLE', message, { code: [message] });
    }
    return 'totp';
  }
  const ok =
    user.passwordHash !== null &&
    (await verifyPassword(user.passwordHash, credentials.password ?? '').catch(() => false));
  if (!ok)
    throw new AppError('UNPROCESSABLE', 'The password is incorrect.', { password: ['The password is incorrect.'] });
  return 'password';
}

export function evidenceOf(app: FastifyInstance, request: FastifyRequest): Evidence {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
    now: app.clock.now(),
  };
}

/** After the credentials of a bulk signature: a token good for these documents only, for a few minutes. */
export async function startSigningBatch(
  app: FastifyInstance,
  request: FastifyRequest,
  projectId: number,
  documentIds: number[],
  method: 'password' | 'totp',
) {
  const token = randomToken(32);
  const expiresAt = new Date(app.clock.now().getTime() + minutes(SIGNING_BATCH_MINUTES));
  await updateSessionData(app, request, {
    ...request.session!.data,
    signingBatch: { tokenHash: sha256(token), projectId, documentIds, method, expiresAt: expiresAt.toISOString() },
  });
  return { batch_token: token, expires_at: expiresAt.toISOString() };
}

/** The method the batch was authorised with, when the token is this session's, current and covers `documentIds`. */
export function checkSigningBatch(
  app: FastifyInstance,
  request: FastifyRequest,
  projectId: number,
  token: string | undefined,
  documentIds: number[],
): 'password' | 'totp' {
  const batch = request.session?.data.signingBatch;
  const expired = 'Your signing confirmation has expired. Enter your password or a code again to sign.';
  if (!token || !batch || !safeEqual(sha256(token), batch.tokenHash) || batch.projectId !== projectId) {
    throw new AppError('PASSWORD_CONFIRMATION_REQUIRED', expired);
  }
  if (new Date(batch.expiresAt).getTime() <= app.clock.now().getTime()) {
    throw new AppError('PASSWORD_CONFIRMATION_REQUIRED', expired);
  }
  const covered = new Set(batch.documentIds);
  if (documentIds.some((id) => !covered.has(id))) {
    throw new AppError(
      'PASSWORD_CONFIRMATION_REQUIRED',
      'Some of these policies were not in the selection you confirmed. Confirm the selection again.',
    );
  }
  return batch.method;
}
