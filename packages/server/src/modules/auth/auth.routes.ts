import {
  authCheckSchema,
  checkTermsQuerySchema,
  checkTermsResponseSchema,
  currentUserSchema,
  errorBodySchema,
  loginRequestSchema,
  loginResponseSchema,
  passwordConfirmSchema,
  publicConfigSchema,
  sessionListSchema,
} from '@portal/shared';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessions } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { minutes } from '../../lib/clock.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { AppError, notFound } from '../../lib/errors.js';
import { hitRateLimit } from '../../lib/rate-limit.js';
import { confirmPassword, signedInAt } from '../../plugins/password-confirmation.js';
import { endSession, issueAnonymousXsrf, issueSession, requireUser, XSRF_COOKIE } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { singleLogoutUrl } from '../identity/saml.service.js';
import { termsStatusForUser } from '../terms/terms.service.js';
import { twoFactorPolicyFor } from '../two-factor/two-factor.service.js';
import { presentUser } from '../users/users.service.js';
import { completeWithCode, type LoginOutcome, loginWithPassword } from './login.service.js';
import { findUserByLogin } from './users.repository.js';

const PENDING_LOGIN_MS = minutes(5);
const errors = errorAnswers(400, 401, 419, 422, 429);
const exempt = { mfaExempt: true };

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const facts = (request: FastifyRequest) => ({ ip: request.ip, requestId: request.id, now: app.clock.now() });
  const deps = { db, config: app.config, captcha: app.captcha, appKey: app.appKey };

  app.get(
    '/sanctum/csrf-cookie',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sets the XSRF-TOKEN cookie, bound to the session or, before one is stored, to a random key cookie',
      },
      config: { ...exempt, access: access.public },
    },
    async (request, reply) => {
      const now = app.clock.now();
      // Anonymous visitors get a signed token and no sessions row; a session is stored at sign-in or when a flow
      // needs state (two-factor step, single sign-on).
      if (!request.session) issueAnonymousXsrf(app, request, reply, now);
      // The token's value is only in the browser's cookie; without it, start over with fresh ids (same user, same expiry).
      else if (!request.cookies[XSRF_COOKIE]) {
        await issueSession(app, request, reply, {
          userId: request.session.userId,
          data: request.session.data,
          now,
          expiresAt: request.session.expiresAt,
        });
      }
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/public/config',
    {
      schema: { tags: ['public'], summary: 'What the web needs before sign-in', response: { 200: publicConfigSchema } },
      config: { ...exempt, access: access.public },
    },
    async () => ({
      inactivityTimeoutMinutes: app.config.INACTIVITY_TIMEOUT_MINUTES,
      captcha: { provider: app.config.CAPTCHA_PROVIDER, challengeUrl: '/api/public/captcha/challenge' },
    }),
  );

  app.get(
    '/api/public/captcha/challenge',
    {
      schema: { tags: ['public'], summary: 'A fresh ALTCHA proof-of-work challenge' },
      config: { ...exempt, access: access.public },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'no-store').send(await app.captcha.createChallenge(app.clock.now())),
  );

  app.post(
    '/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email or username, password, captcha, terms and, when on, a two-factor code',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, ...errors },
      },
      config: { ...exempt, access: access.public },
    },
    async (request, reply) => {
      const body = request.body;
      const pending = request.session?.data.pendingLogin;
      const now = app.clock.now();
      let outcome: LoginOutcome;
      if (body.one_time_password && pending && new Date(pending.expiresAt) > now) {
        outcome = await completeWithCode(deps, pending.userId, body.one_time_password, facts(request));
      } else {
        outcome = await loginWithPassword(
          deps,
          {
            login: body.email,
            password: body.password,
            captcha: body['g-recaptcha-response'],
            acceptTerms: body.accept_terms === true,
            code: body.one_time_password || undefined,
          },
          facts(request),
        );
      }
      if (outcome.kind === 'two_factor_needed') {
        // Password verified: the code step needs neither the password nor a new captcha for 5 minutes.
        await issueSession(app, request, reply, {
          userId: null,
          data: {
            pendingLogin: {
              userId: outcome.userId,
              expiresAt: new Date(now.getTime() + PENDING_LOGIN_MS).toISOString(),
            },
          },
          now,
        });
        return { two_factor: true as const };
      }
      // A code step after a single sign-on opens a session that names its provider (decision record 023).
      const sso = body.one_time_password && pending ? pending.sso : undefined;
      // Signed in just now (password, or the code after it or after a single sign-on): counts as a confirmation.
      await issueSession(app, request, reply, {
        userId: outcome.user.id,
        now,
        data: { ...(sso ? { sso } : {}), ...signedInAt(now) },
      });
      return {
        user: presentUser(outcome.user),
        ...(outcome.setupTwoFactor ? { setup_two_factor: true as const } : {}),
      };
    },
  );

  const logout = (reason: 'user' | 'inactivity') => async (request: FastifyRequest, reply: FastifyReply) => {
    const user = request.user;
    if (user) {
      await recordAudit(db, {
        action: reason === 'inactivity' ? 'auth.logout_inactivity' : 'auth.logout',
        actorUserId: user.id,
        subjectType: 'user',
        subjectId: user.id,
        ip: request.ip,
        requestId: request.id,
        at: app.clock.now(),
      });
    }
    // A session a SAML provider opened is ended there too where it takes logout requests (single logout).
    const singleLogout =
      reason === 'user'
        ? await singleLogoutUrl(db, request.session?.data.sso, {
            appUrl: app.config.APP_URL,
            now: app.clock.now(),
          }).catch((err: unknown) => {
            request.log.warn({ err }, 'No single logout request for the identity provider');
            return null;
          })
        : null;
    await endSession(app, request, reply);
    if (singleLogout) return reply.status(200).send({ single_logout_url: singleLogout });
    return reply.status(204).send();
  };
  app.post(
    '/logout',
    { schema: { tags: ['auth'], summary: 'Sign out' }, config: { ...exempt, access: access.public } },
    logout('user'),
  );
  app.post(
    '/logout-inactivity',
    {
      schema: { tags: ['auth'], summary: 'Sign out after inactivity (audited as such)' },
      config: { ...exempt, access: access.public },
    },
    logout('inactivity'),
  );

  app.get(
    '/api/auth/check',
    {
      schema: { tags: ['auth'], summary: 'Whether a user is signed in', response: { 200: authCheckSchema } },
      config: { ...exempt, access: access.public },
    },
    async (request) => {
      const user = request.user;
      if (!user) return { authenticated: false, user: null };
      const policy = await twoFactorPolicyFor(db, app.config, user, app.clock.now());
      // A single sign-on its provider vouched for as multi-factor satisfies the rule for this session.
      const ssoMfa = request.session?.data.sso?.mfa === true;
      return {
        authenticated: true,
        user: {
          id: user.id,
          username: user.username,
          role: user.role,
          two_factor_secret: user.twoFactorSecret !== null,
          two_factor_confirmed_at: user.twoFactorConfirmedAt?.toISOString() ?? null,
          mfa: ssoMfa
            ? { required: policy.required, days_remaining: null, overdue: false }
            : { required: policy.required, days_remaining: policy.graceDaysRemaining, overdue: policy.overdue },
        },
      };
    },
  );

  for (const url of ['/api/user', '/user', '/me']) {
    app.get(
      url,
      {
        schema: {
          tags: ['auth'],
          summary: 'The signed-in user',
          response: { 200: currentUserSchema, 401: errorBodySchema },
        },
        config: { ...exempt, access: access.signedIn },
      },
      async (request) => presentUser(requireUser(request)),
    );
  }

  app.get(
    '/check-terms',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether the account must accept the terms before signing in',
        querystring: checkTermsQuerySchema,
        response: { 200: checkTermsResponseSchema, 429: errorBodySchema },
      },
      config: { ...exempt, access: access.public },
    },
    async (request) => {
      const limit = await hitRateLimit(db, `check-terms:${request.ip}`, 30, 60_000, app.clock.now());
      if (!limit.allowed)
        throw new AppError(
          'RATE_LIMITED',
          'Too many requests. Please wait a moment.',
          undefined,
          limit.retryAfterSeconds,
        );
      const user = await findUserByLogin(db, request.query.email);
      if (!user) return { status: 'not_found' as const };
      return { status: (await termsStatusForUser(db, user.id)).status };
    },
  );

  app.post(
    '/api/user/confirm-password',
    {
      schema: {
        tags: ['account'],
        summary: 'Re-confirm the password before a sensitive action',
        body: passwordConfirmSchema,
        response: { 204: z.undefined(), 422: errorBodySchema },
      },
      config: { ...exempt, access: access.signedIn },
    },
    async (request, reply) => {
      await confirmPassword(app, request, request.body.password ?? '');
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/user/sessions',
    {
      config: { access: access.signedIn },
      schema: { tags: ['account'], summary: 'My signed-in sessions', response: { 200: sessionListSchema } },
    },
    async (request) => {
      const user = requireUser(request);
      const rows = await db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user.id))
        .orderBy(desc(sessions.lastSeenAt));
      return {
        sessions: rows.map((s) => ({
          id: s.publicId,
          ip: s.ip,
          user_agent: s.userAgent,
          created_at: s.createdAt.toISOString(),
          last_seen_at: s.lastSeenAt.toISOString(),
          current: s.idHash === request.session?.idHash,
          sso_provider: s.data.sso?.providerName ?? null,
        })),
      };
    },
  );

  app.delete(
    '/api/user/sessions/:id',
    {
      config: { access: access.signedIn },
      schema: { tags: ['account'], summary: 'End one of my other sessions', params: z.object({ id: z.uuid() }) },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const ended = await db
        .delete(sessions)
        .where(
          and(
            eq(sessions.publicId, request.params.id),
            eq(sessions.userId, user.id),
            ne(sessions.idHash, request.session!.idHash),
          ),
        )
        .returning({ id: sessions.publicId });
      if (!ended.length) throw notFound();
      await recordAudit(db, {
        action: 'auth.session_ended',
        actorUserId: user.id,
        subjectType: 'session',
        subjectId: request.params.id,
        ip: request.ip,
        requestId: request.id,
        at: app.clock.now(),
      });
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/user/sessions',
    { config: { access: access.signedIn }, schema: { tags: ['account'], summary: 'End all my other sessions' } },
    async (request, reply) => {
      const user = requireUser(request);
      const ended = await db
        .delete(sessions)
        .where(and(eq(sessions.userId, user.id), ne(sessions.idHash, request.session!.idHash)))
        .returning({ id: sessions.publicId });
      await recordAudit(db, {
        action: 'auth.other_sessions_ended',
        actorUserId: user.id,
        subjectType: 'user',
        subjectId: user.id,
        data: { count: ended.length },
        ip: request.ip,
        requestId: request.id,
        at: app.clock.now(),
      });
      return reply.status(204).send();
    },
  );
};
