import {
  errorBodySchema,
  groupMappingInputSchema,
  groupMappingListSchema,
  groupMappingOptionsSchema,
  groupMappingSchema,
  INT4_MAX,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { createMapping, deleteMapping, listMappings, mappingOptions, updateMapping } from './group-mappings.service.js';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};

const recordId = (what: string) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `The ${what} id is 1 to 10 digits.`)
    .transform(Number)
    .refine((id) => id <= INT4_MAX, `The ${what} id is too large.`);

const providerParams = z.object({ id: recordId('provider') });
const mappingParams = z.object({ id: recordId('provider'), mappingId: recordId('mapping') });

/**
 * Superadmin: a provider's group mappings (docs/identity.md "Group mappings"). Each change is audited; people's
 * memberships follow at their next sign-in through the provider.
 */
export const groupMappingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const facts = (request: FastifyRequest) => ({
    actorUserId: superadminOf(request).id,
    now: app.clock.now(),
    ip: request.ip,
    requestId: request.id,
  });
  const base = '/super/identity-providers/:id';

  app.get(
    `${base}/mappings`,
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'The group mappings of an identity provider',
        params: providerParams,
        response: { 200: groupMappingListSchema, ...errors },
      },
    },
    async (request) => {
      superadminOf(request);
      return { mappings: await listMappings(db, request.params.id) };
    },
  );

  app.get(
    `${base}/mapping-options`,
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'What a group mapping may name: active projects, their apps with main roles, their departments',
        params: providerParams,
        response: { 200: groupMappingOptionsSchema, ...errors },
      },
    },
    async (request) => {
      superadminOf(request);
      return mappingOptions(db, request.params.id);
    },
  );

  app.post(
    `${base}/mappings`,
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Map a directory group to a project, its roles and reader duties',
        params: providerParams,
        body: groupMappingInputSchema,
        response: { 201: groupMappingSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createMapping(db, request.params.id, request.body, facts(request))),
  );

  app.put(
    `${base}/mappings/:mappingId`,
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Change a group mapping',
        params: mappingParams,
        body: groupMappingInputSchema,
        response: { 200: groupMappingSchema, ...errors },
      },
    },
    async (request) => updateMapping(db, request.params.id, request.params.mappingId, request.body, facts(request)),
  );

  app.delete(
    `${base}/mappings/:mappingId`,
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Remove a group mapping (what it granted goes at each person’s next sign-in)',
        params: mappingParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteMapping(db, request.params.id, request.params.mappingId, facts(request));
      return reply.status(204).send();
    },
  );
};
