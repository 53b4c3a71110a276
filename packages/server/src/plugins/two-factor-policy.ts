import { MESSAGES, MFA_GRACE_HEADER } from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { twoFactorPolicyFor } from '../modules/two-factor/two-factor.service.js';
import { access } from '../policies/access.js';

/**
 * MFA_REQUIRED_ROLES must set up two-factor within MFA_GRACE_DAYS. Until then every answer to them carries the days
 * remaining; after it, the API calls that need a signed-in user answer 403 { mfa_required: true, message }.
 *
 * Always reachable, so that an overdue account can still load the web app, see why and set up two-factor: every
 * route that declares no access (the web app's files and pages), public routes (what anyone may call), and routes
 * marked mfaExempt (sign-in, sign-out, the session check, the two-factor settings calls).
 */
export function registerTwoFactorPolicy(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    const user = request.user;
    // A single sign-on whose provider is trusted for MFA and said so (decision record 023) counts as two-factor.
    if (!user || user.twoFactorConfirmedAt || request.session?.data.sso?.mfa || !request.routeOptions.url) return;
    const policy = await twoFactorPolicyFor(app.database.db, app.config, user, app.clock.now());
    if (!policy.required) return;
    reply.header(MFA_GRACE_HEADER, String(policy.graceDaysRemaining));
    if (policy.overdue && isGated(request)) {
      return reply.status(403).send({ message: MESSAGES.mfaRequired, code: 'FORBIDDEN', mfa_required: true });
    }
  });
}

/** An API route for signed-in users that is not needed to set up two-factor. */
function isGated(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  return config.access !== undefined && config.access !== access.public && !config.mfaExempt;
}
