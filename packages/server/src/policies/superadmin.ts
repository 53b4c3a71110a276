import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { requireUser, type SessionUser } from '../plugins/session.js';

/** The gate of every /super/... call: superadmins only (signed-out callers get 401 from requireUser). */
export function requireSuperadmin(user: SessionUser): void {
  if (user.role !== 'superadmin') throw new AppError('FORBIDDEN', 'This is for superadmins only.');
}

/** The signed-in superadmin of a request, or the 401/403 that stops it. */
export function superadminOf(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  requireSuperadmin(user);
  return user;
}

/**
 * Puts the superadmin gate before input validation on every route of the plugin it is called in, so nobody else
 * learns anything from a 400 (they get 401 or 403 whatever they send).
 */
export function guardSuperadminRoutes(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    superadminOf(request);
  });
}
