import {
  errorBodySchema,
  INT4_MAX,
  identityProviderInputSchema,
  identityProviderListSchema,
  identityProviderSchema,
  publicIdentityProviderListSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { createProvider, deleteProvider, listProviders, publicProviders, updateProvider } from './providers.service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};

const providerParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, 'The provider id is 1 to 10 digits.')
    .transform(Number)
    .refine((id) => id <= INT4_MAX, 'The provider id is too large.'),
});

/** What the sign-in page knows of the enabled providers (decision record 023). */
export const publicIdentityProviderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/public/identity-providers',
    {
      schema: {
        tags: ['public'],
        summary: 'The enabled single sign-on providers: a button each, and the domains each claims',
        response: { 200: publicIdentityProviderListSchema },
      },
      config: { mfaExempt: true, access: access.public },
    },
    async () => ({ providers: await publicProviders(app.database.db) }),
  );
};

/** Superadmin: the identity providers (docs/identity.md). Each change is audited, the secret named only. */
export const identityProviderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const facts = (request: FastifyRequest) => ({
    actorUserId: superadminOf(request).id,
    appKey: app.appKey,
    appUrl: app.config.APP_URL,
    now: app.clock.now(),
    ip: request.ip,
    requestId: request.id,
  });

  app.get(
    '/super/identity-providers',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'The identity providers (single sign-on)',
        response: { 200: identityProviderListSchema, ...errors },
      },
    },
    async (request) => {
      superadminOf(request);
      return { providers: await listProviders(db, app.config.APP_URL) };
    },
  );

  app.post(
    '/super/identity-providers',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Add an identity provider (the client secret is sealed, never returned)',
        body: identityProviderInputSchema,
        response: { 201: identityProviderSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createProvider(db, request.body, facts(request))),
  );

  app.put(
    '/super/identity-providers/:id',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Change an identity provider (an empty client secret keeps the stored one)',
        params: providerParams,
        body: identityProviderInputSchema,
        response: { 200: identityProviderSchema, ...errors },
      },
    },
    async (request) => updateProvider(db, request.params.id, request.body, facts(request)),
  );

  app.delete(
    '/super/identity-providers/:id',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Remove an identity provider and its links (the accounts stay)',
        params: providerParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteProvider(db, request.params.id, facts(request));
      return reply.status(204).send();
    },
  );
};
