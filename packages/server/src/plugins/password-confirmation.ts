import {
  type IdpKind,
  loginPathFor,
  PASSWORD_CONFIRMATION_MINUTES,
  type Reauthentication,
  reauthenticationMessage,
} from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionData } from '../db/schema/index.js';
import { minutes } from '../lib/clock.js';
import { AppError } from '../lib/errors.js';
import { verifyPassword } from '../lib/passwords.js';
import { findProviderById } from '../modules/identity/providers.service.js';
import { requireUser, updateSessionData } from './session.js';

export const PASSWORD_CONFIRMATION_MS = minutes(PASSWORD_CONFIRMATION_MINUTES);

/**
 * The session data a sign-in records (password, two-factor code or single sign-on): having just proved who they are,
 * the user is not asked again for the next 10 minutes.
 */
export const signedInAt = (now: Date): Pick<SessionData, 'passwordConfirmedAt'> => ({
  passwordConfirmedAt: now.toISOString(),
});

/** Checks the signed-in user's password and remembers the confirmation in the session for 10 minutes. */
export async function confirmPassword(app: FastifyInstance, request: FastifyRequest, password: string): Promise<void> {
  const user = requireUser(request);
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password).catch(() => false))) {
    throw new AppError('UNPROCESSABLE', 'The password is incorrect.', { password: ['The password is incorrect.'] });
  }
  await updateSessionData(app, request, { ...request.session!.data, ...signedInAt(app.clock.now()) });
}

/**
 * Guards the sensitive actions (turn two-factor on, off or reset it, new recovery codes): a password sent with the
 * request re-confirms; otherwise a sign-in or confirmation in the last 10 minutes is needed, else 423 with how to
 * confirm (`details`: the password, or signing in again through the session's provider).
 */
export async function requireRecentPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  password: string | undefined,
): Promise<void> {
  const user = requireUser(request);
  // An account without a password (single sign-on only) cannot confirm one: it is told to sign in again instead.
  if (password && user.passwordHash) return confirmPassword(app, request, password);
  const confirmedAt = request.session?.data.passwordConfirmedAt;
  if (confirmedAt && app.clock.now().getTime() - new Date(confirmedAt).getTime() <= PASSWORD_CONFIRMATION_MS) return;
  const how: Reauthentication = { password: user.passwordHash !== null, sso: await ssoOfSession(app, request) };
  const error = new AppError('PASSWORD_CONFIRMATION_REQUIRED', reauthenticationMessage(how));
  error.details = { reauthenticate: how };
  throw error;
}

/** The provider that opened this session, while it is still on: signing in there again confirms. */
async function ssoOfSession(app: FastifyInstance, request: FastifyRequest): Promise<Reauthentication['sso']> {
  const sso = request.session?.data.sso;
  if (!sso) return null;
  const provider = await findProviderById(app.database.db, sso.providerId);
  if (!provider?.enabled) return null;
  return { name: provider.name, login_url: loginPathFor(provider.kind as IdpKind, provider.slug) };
}
