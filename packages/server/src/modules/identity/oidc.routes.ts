import { errorBodySchema, MESSAGES, SSO_ERRORS, ssoAcceptTermsSchema, ssoFinishSchema } from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionSso } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { issueSession, updateSessionData } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { findUserById, type UserRow } from '../auth/users.repository.js';
import { sendNotices } from '../notifications/notices.js';
import { acceptTerms, termsStatusForUser } from '../terms/terms.service.js';
import {
  completeOidcLogin,
  recordSsoFailure,
  recordSsoLogin,
  SSO_LOGIN_MS,
  SsoRefusal,
  safeRedirect,
  startOidcLogin,
} from './oidc.service.js';
import { findProviderById, findProviderBySlug, type ProviderRow } from './providers.service.js';

const PENDING_LOGIN_MS = minutes(5);
const exempt = { mfaExempt: true };
const slugParams = z.object({ slug: z.string().max(100) });
const MEMBER_LOGIN = '/member-login';

/**
 * Single sign-on through OpenID Connect (decision record 023, docs/identity.md): the browser is sent to the
 * provider, comes back to the callback, and leaves signed in, at the terms step, at the two-factor code step, or at
 * the sign-in page with `sso_error=<key of SSO_ERRORS>`. Every refusal is audited as a failed sign-in.
 */
export const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const facts = (request: FastifyRequest) => ({
    appKey: app.appKey,
    appUrl: app.config.APP_URL,
    now: app.clock.now(),
    ip: request.ip,
    requestId: request.id,
  });

  async function refuse(request: FastifyRequest, reply: FastifyReply, error: unknown, provider: string) {
    const refusal = error instanceof SsoRefusal ? error : new SsoRefusal('failed', 'sso_error', null, 'internal');
    if (!(error instanceof SsoRefusal)) request.log.error({ err: error }, 'Single sign-on failed');
    else request.log.warn({ reason: refusal.reason, detail: refusal.detail, provider }, 'Single sign-on refused');
    await recordSsoFailure(db, { refusal, provider }, facts(request));
    return reply.header('cache-control', 'no-store').redirect(`${MEMBER_LOGIN}?sso_error=${refusal.key}`, 302);
  }

  /** Signed in, or (portal TOTP on, provider's MFA not trusted) held at the code step of POST /login. */
  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    input: { user: UserRow; provider: ProviderRow; mfa: boolean; redirect: string },
  ): Promise<{ kind: 'two_factor' } | { kind: 'signed_in'; redirect: string }> {
    const now = app.clock.now();
    const sso: SessionSso = { providerId: input.provider.id, providerName: input.provider.name, mfa: input.mfa };
    if (input.user.twoFactorConfirmedAt && !input.mfa) {
      await issueSession(app, request, reply, {
        userId: null,
        data: {
          pendingLogin: {
            userId: input.user.id,
            expiresAt: new Date(now.getTime() + PENDING_LOGIN_MS).toISOString(),
            sso,
          },
        },
        now,
      });
      return { kind: 'two_factor' };
    }
    await issueSession(app, request, reply, { userId: input.user.id, data: { sso }, now });
    await recordSsoLogin(db, { userId: input.user.id, provider: input.provider, mfa: input.mfa }, facts(request));
    return { kind: 'signed_in', redirect: input.redirect };
  }

  app.get(
    '/auth/oidc/:slug/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start a single sign-on: redirects to the identity provider',
        params: slugParams,
        querystring: z.object({ redirect: z.string().max(2000).optional() }),
      },
      config: { ...exempt, access: access.public },
    },
    async (request, reply) => {
      const now = app.clock.now();
      const provider = await findProviderBySlug(db, request.params.slug.toLowerCase());
      if (!provider?.enabled) return reply.redirect(`${MEMBER_LOGIN}?sso_error=unknown_provider`, 302);
      let started: Awaited<ReturnType<typeof startOidcLogin>>;
      try {
        started = await startOidcLogin(provider, {
          appKey: app.appKey,
          appUrl: app.config.APP_URL,
          now,
          redirect: safeRedirect(request.query.redirect),
        });
      } catch (error) {
        return refuse(request, reply, error, provider.slug);
      }
      const data = { ...(request.session?.data ?? {}), ssoLogin: started.ssoLogin };
      if (request.session) await updateSessionData(app, request, data);
      else await issueSession(app, request, reply, { userId: null, data, now });
      return reply.header('cache-control', 'no-store').redirect(started.url.href, 302);
    },
  );

  app.get(
    '/auth/oidc/:slug/callback',
    {
      schema: {
        tags: ['auth'],
        summary: 'Where the identity provider returns: signs in, or redirects to the sign-in page with the reason',
        params: slugParams,
        querystring: z.looseObject({}),
      },
      config: { ...exempt, access: access.public },
    },
    async (request, reply) => {
      const now = app.clock.now();
      const slug = request.params.slug;
      // Used once: cleared before anything is checked, whatever happens next.
      const pending = request.session?.data.ssoLogin;
      if (pending && request.session) {
        const { ssoLogin: _used, ...rest } = request.session.data;
        await updateSessionData(app, request, rest);
      }
      try {
        if (!pending) throw new SsoRefusal('expired', 'sso_no_login_pending');
        if (new Date(pending.expiresAt) <= now) throw new SsoRefusal('expired', 'sso_login_expired');
        const provider = await findProviderById(db, pending.providerId);
        if (provider?.slug !== slug || !provider.enabled) {
          throw new SsoRefusal('unknown_provider', 'sso_unknown_provider');
        }
        const at = request.url.indexOf('?');
        const query = at === -1 ? '' : request.url.slice(at);
        const { user, mfa, notices } = await completeOidcLogin(db, provider, pending, query, facts(request));
        // Open policy rounds that followed a role the groups changed: told once the sign-in's writes committed.
        for (const project of notices) {
          await sendNotices(db, app.mailer, project.projectId, project.notices, now, (err) =>
            request.log.error({ err }, 'Notices after a group mapping could not be sent'),
          );
        }
        if ((await termsStatusForUser(db, user.id)).status !== 'accepted') {
          await issueSession(app, request, reply, {
            userId: null,
            data: {
              pendingSso: {
                userId: user.id,
                providerId: provider.id,
                mfa,
                redirect: pending.redirect,
                expiresAt: new Date(now.getTime() + SSO_LOGIN_MS).toISOString(),
              },
            },
            now,
          });
          return reply.header('cache-control', 'no-store').redirect(`${MEMBER_LOGIN}?sso=terms`, 302);
        }
        const done = await finish(request, reply, { user, provider, mfa, redirect: pending.redirect });
        return reply
          .header('cache-control', 'no-store')
          .redirect(done.kind === 'two_factor' ? `${MEMBER_LOGIN}?sso=two_factor` : done.redirect, 302);
      } catch (error) {
        return refuse(request, reply, error, slug);
      }
    },
  );

  app.post(
    '/auth/sso/accept-terms',
    {
      schema: {
        tags: ['auth'],
        summary: 'The terms step of a single sign-on: accept the newest terms, then signed in or the code step',
        body: ssoAcceptTermsSchema,
        response: { 200: ssoFinishSchema, 400: errorBodySchema, 419: errorBodySchema, 422: errorBodySchema },
      },
      config: { ...exempt, access: access.public },
    },
    async (request, reply) => {
      const now = app.clock.now();
      const pending = request.session?.data.pendingSso;
      if (!pending || new Date(pending.expiresAt) <= now) throw new AppError('UNPROCESSABLE', SSO_ERRORS.expired);
      if (!request.body.accept_terms) throw new AppError('UNPROCESSABLE', MESSAGES.termsRequired);
      const { pendingSso: _done, ...rest } = request.session!.data;
      await updateSessionData(app, request, rest);
      const provider = await findProviderById(db, pending.providerId);
      const user = await findUserById(db, pending.userId);
      if (!provider?.enabled || user?.status !== 'active') throw new AppError('UNPROCESSABLE', SSO_ERRORS.failed);
      const terms = await termsStatusForUser(db, user.id);
      if (terms.status !== 'accepted') {
        await acceptTerms(db, {
          userId: user.id,
          termsVersionId: terms.newestId!,
          now,
          ip: request.ip,
          requestId: request.id,
        });
      }
      const done = await finish(request, reply, { user, provider, mfa: pending.mfa, redirect: pending.redirect });
      return done.kind === 'two_factor' ? { two_factor: true as const } : { redirect: done.redirect };
    },
  );
};
