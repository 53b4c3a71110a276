import { MESSAGES } from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { minutes } from '../lib/clock.js';
import { AppError } from '../lib/errors.js';
import { verifyPassword } from '../lib/passwords.js';
import { requireUser, updateSessionData } from './session.js';

export const PASSWORD_CONFIRMATION_MS = minutes(15);

/** Checks the signed-in user's password and remembers the confirmation in the session for 15 minutes. */
export async function confirmPassword(app: FastifyInstance, request: FastifyRequest, password: string): Promise<void> {
  const user = requireUser(request);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password).catch(() => false))) {
    throw new AppError('UNPROCESSABLE', 'The password is incorrect.', { password: ['The password is incorrect.'] });
  }
  await updateSessionData(app, request, {
    ...request.session!.data,
    passwordConfirmedAt: app.clock.now().toISOString(),
  });
}

/**
 * Guards sensitive actions (regenerate recovery codes, turn two-factor off): a password sent with the request
 * re-confirms; otherwise a confirmation in the last 15 minutes is needed, else 423.
 */
export async function requireRecentPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  password: string | undefined,
): Promise<void> {
  if (password) return confirmPassword(app, request, password);
  const confirmedAt = request.session?.data.passwordConfirmedAt;
  if (!confirmedAt || app.clock.now().getTime() - new Date(confirmedAt).getTime() > PASSWORD_CONFIRMATION_MS) {
    throw new AppError('PASSWORD_CONFIRMATION_REQUIRED', MESSAGES.passwordConfirmationRequired);
  }
}
