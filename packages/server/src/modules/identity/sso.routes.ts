import { errorBodySchema, MESSAGES, SSO_ERRORS, ssoAcceptTermsSchema, ssoFinishSchema } from '@portal/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionSso } from '../../db/schema/index.js';
import { minutes } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { signedInAt } from '../../plugins/password-confirmation.js';
import { issueSession, updateSessionData } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { findUserById, type UserRow } from '../auth/users.repository.js';
import { acceptTerms, termsStatusForUser } from '../terms/terms.service.js';
import { completeOidcLogin, startOidcLogin } from './oidc.service.js';
import { findProviderById, findProviderBySlug, type ProviderRow } from './providers.service.js';
import {
  completeSamlLogin,
  handleLogoutMessage,
  type SamlSession,
  spMetadata,
  startSamlLogin,
} from './saml.service.js';
import { recordSsoFailure, recordSsoLogin, SSO_LOGIN_MS, SsoRefusal, safeRedirect } from './sso.service.js';

const PENDING_LOGIN_MS = minutes(5);
const exempt = { mfaExempt: true };
const slugParams = z.object({ slug: z.string().max(100) });
const MEMBER_LOGIN = '/member-login';
/** After a provider's POST (SAML) the browser must GET the next page: 303; after its redirect (OIDC) 302 as ever. */
const seeOther = (request: FastifyRequest) => (request.method === 'POST' ? 303 : 302);

/** A SAML message as the provider's browser form posts it (HTTP-POST binding). */
const samlPostSchema = z.object({
  SAMLResponse: z.string().min(1).max(1_000_000),
  RelayState: z.string().max(2000).optional(),
});

/**
 * Single sign-on through OpenID Connect and SAML 2.0 (decision record 023, docs/identity.md): the browser is sent to
 * the provider (or, SAML, comes from it unasked), comes back to the callback or the ACS, and leaves signed in, at the
 * terms step, at the two-factor code step, or at the sign-in page with `sso_error=<key of SSO_ERRORS>`. Every
 * refusal is audited as a failed sign-in.
 */
export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const facts = (request: FastifyRequest) => ({
    appKey: app.appKey,
    mailer: app.mailer,
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
    return reply
      .header('cache-control', 'no-store')
      .redirect(`${MEMBER_LOGIN}?sso_error=${refusal.key}`, seeOther(request));
  }

  /** Signed in, or (portal TOTP on, provider's MFA not trusted) held at the code step of POST /login. */
  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    input: { user: UserRow; provider: ProviderRow; mfa: boolean; redirect: string; saml?: SamlSession },
  ): Promise<{ kind: 'two_factor' } | { kind: 'signed_in'; redirect: string }> {
    const now = app.clock.now();
    const sso: SessionSso = {
      providerId: input.provider.id,
      providerName: input.provider.name,
      mfa: input.mfa,
      ...input.saml,
    };
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
    // Signing in again through the provider is how an account without a password confirms a sensitive action.
    await issueSession(app, request, reply, { userId: input.user.id, data: { sso, ...signedInAt(now) }, now });
    await recordSsoLogin(db, { userId: input.user.id, provider: input.provider, mfa: input.mfa }, facts(request));
    return { kind: 'signed_in', redirect: input.redirect };
  }

  /** A provider's answer accepted (its notices queued with its writes): the terms step, the code step, or signed in. */
  async function land(
    request: FastifyRequest,
    reply: FastifyReply,
    input: {
      user: UserRow;
      provider: ProviderRow;
      mfa: boolean;
      redirect: string;
      saml?: SamlSession;
    },
  ) {
    const now = app.clock.now();
    const { user, provider, mfa, redirect, saml } = input;
    if ((await termsStatusForUser(db, user.id)).status !== 'accepted') {
      await issueSession(app, request, reply, {
        userId: null,
        data: {
          pendingSso: {
            userId: user.id,
            providerId: provider.id,
            mfa,
            redirect,
            expiresAt: new Date(now.getTime() + SSO_LOGIN_MS).toISOString(),
            ...(saml ? { saml } : {}),
          },
        },
        now,
      });
      return reply.header('cache-control', 'no-store').redirect(`${MEMBER_LOGIN}?sso=terms`, seeOther(request));
    }
    const done = await finish(request, reply, { user, provider, mfa, redirect, ...(saml ? { saml } : {}) });
    return reply
      .header('cache-control', 'no-store')
      .redirect(done.kind === 'two_factor' ? `${MEMBER_LOGIN}?sso=two_factor` : done.redirect, seeOther(request));
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
        const { user, mfa } = await completeOidcLogin(db, provider, pending, query, facts(request));
        return await land(request, reply, { user, provider, mfa, redirect: pending.redirect });
      } catch (error) {
        return refuse(request, reply, error, slug);
      }
    },
  );

  // ---------------------------------------------------------------------------------------------- SAML 2.0
  /** The enabled SAML provider of a path, or null. */
  async function samlProvider(slug: string): Promise<ProviderRow | null> {
    const provider = await findProviderBySlug(db, slug.toLowerCase());
    return provider?.enabled && provider.kind === 'saml' ? provider : null;
  }

  app.get(
    '/auth/saml/:slug/metadata',
    {
      schema: {
        tags: ['auth'],
        summary: "The portal's SAML service provider metadata for one identity provider (its entity ID, ACS, logout)",
        params: slugParams,
      },
      config: { ...exempt, access: access.public },
    },
    async (request, reply) => {
      const provider = await samlProvider(request.params.slug);
      if (!provider) throw new AppError('NOT_FOUND', 'No SAML identity provider has this name.');
      return reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .send(spMetadata(db, provider, app.config.APP_URL, app.clock.now()));
    },
  );

  app.get(
    '/auth/saml/:slug/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start a SAML sign-in: redirects to the identity provider with an AuthnRequest',
        params: slugParams,
        querystring: z.object({ redirect: z.string().max(2000).optional() }),
      },
      config: { ...exempt, access: access.public },
    },
    async (request, reply) => {
      const provider = await samlProvider(request.params.slug);
      if (!provider) return reply.redirect(`${MEMBER_LOGIN}?sso_error=unknown_provider`, 302);
      try {
        const url = await startSamlLogin(db, provider, {
          appUrl: app.config.APP_URL,
          now: app.clock.now(),
          redirect: safeRedirect(request.query.redirect),
        });
        return reply.header('cache-control', 'no-store').redirect(url, 302);
      } catch (error) {
        return refuse(request, reply, error, provider.slug);
      }
    },
  );

  app.get(
    '/auth/saml/:slug/slo',
    {
      schema: {
        tags: ['auth'],
        summary:
          "Single logout: the provider's signed LogoutRequest ends the sessions it names; its LogoutResponse ends ours",
        params: slugParams,
        querystring: z.looseObject({
          SAMLRequest: z.string().max(100_000).optional(),
          SAMLResponse: z.string().max(100_000).optional(),
          RelayState: z.string().max(2000).optional(),
          SigAlg: z.string().max(200).optional(),
          Signature: z.string().max(2000).optional(),
        }),
      },
      config: { ...exempt, access: access.public },
    },
    async (request, reply) => {
      const slug = request.params.slug;
      try {
        const provider = await samlProvider(slug);
        if (!provider) throw new SsoRefusal('unknown_provider', 'sso_unknown_provider');
        const query = Object.fromEntries(
          Object.entries(request.query).filter((e): e is [string, string] => typeof e[1] === 'string'),
        );
        if (!query.SAMLRequest && !query.SAMLResponse)
          throw new SsoRefusal('failed', 'sso_protocol', null, 'no_message');
        const at = request.url.indexOf('?');
        const done = await handleLogoutMessage(db, provider, query, request.url.slice(at + 1), facts(request));
        if (done.kind === 'response') return reply.header('cache-control', 'no-store').redirect(MEMBER_LOGIN, 302);
        return reply.header('cache-control', 'no-store').redirect(done.responseUrl, 302);
      } catch (error) {
        return refuse(request, reply, error, slug);
      }
    },
  );

  await app.register(async (acs) => {
    // The provider's page posts a form: parsed here only, bounded (a signed response with groups is rarely 100 KB).
    acs.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1_500_000 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    acs.withTypeProvider<ZodTypeProvider>().post(
      '/auth/saml/:slug/acs',
      {
        schema: {
          tags: ['auth'],
          summary: 'The assertion consumer service: the identity provider posts its signed response here',
          params: slugParams,
          body: samlPostSchema,
        },
        // A form posted by the provider's page, from another site: the signed, once-only assertion stands in for the
        // CSRF token (plugins/session.ts).
        config: { ...exempt, access: access.public, signedMessage: true },
      },
      async (request, reply) => {
        const slug = request.params.slug;
        try {
          const provider = await samlProvider(slug);
          if (!provider) throw new SsoRefusal('unknown_provider', 'sso_unknown_provider');
          const done = await completeSamlLogin(db, provider, request.body, facts(request));
          // IdP-initiated: the RelayState may name a page of the portal (anything else is the home page).
          const redirect = done.redirect ?? safeRedirect(request.body.RelayState);
          return await land(request, reply, { ...done, provider, redirect, saml: done.session });
        } catch (error) {
          return refuse(request, reply, error, slug);
        }
      },
    );
  });

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
      const done = await finish(request, reply, {
        user,
        provider,
        mfa: pending.mfa,
        redirect: pending.redirect,
        ...(pending.saml?.nameId ? { saml: { ...pending.saml, nameId: pending.saml.nameId } } : {}),
      });
      return done.kind === 'two_factor' ? { two_factor: true as const } : { redirect: done.redirect };
    },
  );
};
