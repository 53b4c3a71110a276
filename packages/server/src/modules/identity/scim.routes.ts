import { errorBodySchema, INT4_MAX, SCIM_BASE_PATH, scimTokenSchema } from '@portal/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type FastifyPluginAsyncZod, hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { hitRateLimit } from '../../lib/rate-limit.js';
import { JSON_MAX_DEPTH, JSON_TOO_DEEP, jsonTooDeep } from '../../plugins/input-guards.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import type { ProviderRow } from './providers.service.js';
import {
  createGroup,
  createUser,
  deleteGroup,
  deleteUser,
  getGroup,
  getUser,
  listGroups,
  listUsers,
  patchGroup,
  patchUser,
  providerForScimToken,
  replaceGroup,
  replaceUser,
  revokeScimToken,
  rotateScimToken,
  SCIM_SCHEMAS,
  ScimError,
  type ScimFacts,
} from './scim.service.js';
import { resourceTypes, schemas, serviceProviderConfig } from './scim-discovery.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

const providerParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, 'The provider id is 1 to 10 digits.')
    .transform(Number)
    .refine((id) => id <= INT4_MAX, 'The provider id is too large.'),
});

/** Superadmin: a provider's SCIM token, made (or replaced) and shown once, or revoked (docs/identity.md). */
export const scimTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const facts = (request: FastifyRequest) => ({
    actorUserId: superadminOf(request).id,
    appUrl: app.config.APP_URL,
    now: app.clock.now(),
    ip: request.ip,
    requestId: request.id,
  });

  app.post(
    '/super/identity-providers/:id/scim-token',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Make or replace the provider’s SCIM token (shown this once; the old one stops working at once)',
        params: providerParams,
        response: { 200: scimTokenSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return rotateScimToken(db, request.params.id, facts(request));
    },
  );

  app.delete(
    '/super/identity-providers/:id/scim-token',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Revoke the provider’s SCIM token: provisioning is off',
        params: providerParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await revokeScimToken(db, request.params.id, facts(request));
      return reply.status(204).send();
    },
  );
};

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
/** Refused tokens from one address in a window before it gets 429 (a token is 32 random bytes: this spares the database). */
const FAILED_TOKEN_LIMIT = 300;
const FAILED_TOKEN_WINDOW_MS = 10 * 60_000;

const scimError = (status: number, detail: string, scimType?: string) => ({
  schemas: [SCIM_SCHEMAS.error],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

function send(reply: FastifyReply, status: number, body: unknown) {
  return reply.status(status).type(SCIM_CONTENT_TYPE).send(JSON.stringify(body));
}

const listQuery = z.object({
  filter: z.string().max(1000).optional(),
  startIndex: z.string().max(20).optional(),
  count: z.string().max(20).optional(),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
const oneQuery = listQuery.pick({ attributes: true, excludedAttributes: true });
const idParams = z.object({ id: z.string().max(100) });

/**
 * SCIM 2.0 (RFC 7644) at /scim/v2 for identity providers' directories. Authenticated by the provider's bearer token
 * only: no session is read and no CSRF token asked (`bearerToken`), and every session actor gets 401. Answers and
 * errors are application/scim+json.
 */
export const scimRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const providers = new WeakMap<FastifyRequest, ProviderRow>();
  const config = { access: access.bearerToken, bearerToken: true };

  // application/scim+json bodies: parsed as application/json is (bodyLimit, prototype keys refused, nesting depth).
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/scim+json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonTooDeep(text, JSON_MAX_DEPTH)) {
      done(new ScimError(400, JSON_TOO_DEEP, 'invalidSyntax'), undefined);
      return;
    }
    parse(request, text, done);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ScimError)
      return send(reply, error.status, scimError(error.status, error.detail, error.scimType));
    if (error instanceof AppError) {
      if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
      return send(reply, error.status, scimError(error.status, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where = issue?.instancePath.replace(/^\//, '') || error.validationContext || 'request';
      return send(reply, 400, scimError(400, `${where}: ${issue?.message ?? 'not valid'}`, 'invalidValue'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return send(reply, error.statusCode, scimError(error.statusCode, error.message, 'invalidSyntax'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(
      reply,
      500,
      scimError(500, `Something went wrong on our side. Please try again; the reference is ${request.id}.`),
    );
  });

  // The token names the provider; a missing, unknown or revoked one is the same 401.
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const provider = match ? await providerForScimToken(db, match[1]!) : undefined;
    if (!provider) {
      const limit = await hitRateLimit(
        db,
        `scim:${request.ip}`,
        FAILED_TOKEN_LIMIT,
        FAILED_TOKEN_WINDOW_MS,
        app.clock.now(),
      );
      if (!limit.allowed) {
        reply.header('retry-after', String(limit.retryAfterSeconds));
        return send(reply, 429, scimError(429, 'Too many refused tokens from this address. Try again later.'));
      }
      reply.header('www-authenticate', 'Bearer realm="SCIM"');
      return send(reply, 401, scimError(401, 'A valid bearer token is required.'));
    }
    providers.set(request, provider);
  });

  const facts = (request: FastifyRequest): ScimFacts => {
    const provider = providers.get(request);
    if (!provider) throw new ScimError(401, 'A valid bearer token is required.');
    return { db, provider, appUrl: app.config.APP_URL, now: app.clock.now(), ip: request.ip, requestId: request.id };
  };
  const tags = ['scim'];
  const base = SCIM_BASE_PATH;

  // ---------------------------------------------------------------------------------------------- discovery
  app.get(
    `${base}/ServiceProviderConfig`,
    { config, schema: { tags, summary: 'SCIM: what this service provider supports' } },
    async (request, reply) => {
      facts(request);
      return send(reply, 200, serviceProviderConfig(app.config.APP_URL));
    },
  );
  app.get(
    `${base}/ResourceTypes`,
    { config, schema: { tags, summary: 'SCIM: the resource types (User, Group)' } },
    async (request, reply) => {
      facts(request);
      return send(reply, 200, resourceTypes(app.config.APP_URL));
    },
  );
  app.get(
    `${base}/Schemas`,
    { config, schema: { tags, summary: 'SCIM: the User and Group schemas, as far as this server keeps them' } },
    async (request, reply) => {
      facts(request);
      return send(reply, 200, schemas(app.config.APP_URL));
    },
  );

  // ---------------------------------------------------------------------------------------------- users
  app.get(
    `${base}/Users`,
    {
      config,
      schema: {
        tags,
        summary: 'SCIM: the provider’s people (filter userName or externalId eq)',
        querystring: listQuery,
      },
    },
    async (request, reply) => send(reply, 200, await listUsers(facts(request), request.query)),
  );
  app.get(
    `${base}/Users/:id`,
    { config, schema: { tags, summary: 'SCIM: one person', params: idParams, querystring: oneQuery } },
    async (request, reply) => send(reply, 200, await getUser(facts(request), request.params.id)),
  );
  app.post(
    `${base}/Users`,
    { config, schema: { tags, summary: 'SCIM: provision a person (an account created, or linked by email)' } },
    async (request, reply) => {
      const user = await createUser(facts(request), request.body);
      reply.header('location', user.meta.location);
      return send(reply, 201, user);
    },
  );
  app.put(
    `${base}/Users/:id`,
    { config, schema: { tags, summary: 'SCIM: replace a person', params: idParams } },
    async (request, reply) => send(reply, 200, await replaceUser(facts(request), request.params.id, request.body)),
  );
  app.patch(
    `${base}/Users/:id`,
    { config, schema: { tags, summary: 'SCIM: change a person (active false deprovisions)', params: idParams } },
    async (request, reply) => send(reply, 200, await patchUser(facts(request), request.params.id, request.body)),
  );
  app.delete(
    `${base}/Users/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'SCIM: deprovision a person (the account is disabled, never deleted)',
        params: idParams,
      },
    },
    async (request, reply) => {
      await deleteUser(facts(request), request.params.id);
      return reply.status(204).send();
    },
  );

  // ---------------------------------------------------------------------------------------------- groups
  app.get(
    `${base}/Groups`,
    {
      config,
      schema: {
        tags,
        summary: 'SCIM: the provider’s groups (filter displayName or externalId eq)',
        querystring: listQuery,
      },
    },
    async (request, reply) => send(reply, 200, await listGroups(facts(request), request.query)),
  );
  app.get(
    `${base}/Groups/:id`,
    { config, schema: { tags, summary: 'SCIM: one group', params: idParams, querystring: oneQuery } },
    async (request, reply) => send(reply, 200, await getGroup(facts(request), request.params.id, request.query)),
  );
  app.post(`${base}/Groups`, { config, schema: { tags, summary: 'SCIM: push a group' } }, async (request, reply) => {
    const group = await createGroup(facts(request), request.body);
    reply.header('location', group.meta.location);
    return send(reply, 201, group);
  });
  app.put(
    `${base}/Groups/:id`,
    { config, schema: { tags, summary: 'SCIM: replace a group and its members', params: idParams } },
    async (request, reply) => send(reply, 200, await replaceGroup(facts(request), request.params.id, request.body)),
  );
  app.patch(
    `${base}/Groups/:id`,
    { config, schema: { tags, summary: 'SCIM: add or remove members, rename a group', params: idParams } },
    async (request, reply) => {
      await patchGroup(facts(request), request.params.id, request.body);
      return reply.status(204).send();
    },
  );
  app.delete(
    `${base}/Groups/:id`,
    { config, schema: { tags, summary: 'SCIM: remove a group (its members leave it)', params: idParams } },
    async (request, reply) => {
      await deleteGroup(facts(request), request.params.id);
      return reply.status(204).send();
    },
  );
};
