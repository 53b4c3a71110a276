import { MESSAGES, MFA_GRACE_HEADER } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import { twoFactorPolicyFor } from '../modules/two-factor/policy.js';

/**
 * MFA_REQUIRED_ROLES must set up two-factor within MFA_GRACE_DAYS. Until then every answer to them carries the days
 * remaining; after it, every call but sign-in, sign-out and two-factor setup (routes marked mfaExempt) answers
 * 403 { mfa_required: true, message }.
 */
export function registerTwoFactorPolicy(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    const user = request.user;
    if (!user || user.twoFactorConfirmedAt || !request.routeOptions.url) return;
    const policy = await twoFactorPolicyFor(app.database.db, app.config, user, app.clock.now());
    if (!policy.required) return;
    reply.header(MFA_GRACE_HEADER, String(policy.graceDaysRemaining));
    if (policy.overdue && !request.routeOptions.config.mfaExempt) {
      return reply.status(403).send({ message: MESSAGES.mfaRequired, code: 'FORBIDDEN', mfa_required: true });
    }
  });
}
