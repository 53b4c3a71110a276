import {
  type PolicySection,
  synonymGroupInputSchema,
  synonymGroupListSchema,
  synonymGroupSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorAnswers } from '../../lib/error-answers.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { policyAccess } from '../../policies/policy-management.js';
import {
  addSuggestedGroups,
  createSynonymGroup,
  deleteSynonymGroup,
  listSynonymGroups,
  updateSynonymGroup,
} from './synonyms.service.js';

const P = '/api/projects/:projectId/policy-management/search-synonyms';
const errors = errorAnswers(400, 401, 403, 404, 409);
const tags = ['policy management'];
const groupParams = projectParams.extend({ groupId: pathId('synonym group') });
const SYNONYMS = 'search-synonyms' satisfies PolicySection;

/**
 * The project's search synonyms (issue 28; docs/policies.md): policy administrators list, add, change and delete
 * groups of words search treats as one. Search itself reads them for everyone who may search.
 */
export const searchSynonymRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = (request: FastifyRequest & { params: { projectId: number } }) =>
    policyAccess(db, requireUser(request), request, request.params.projectId, SYNONYMS);
  const config = { access: access.section('policy_management', SYNONYMS) };

  app.get(
    P,
    {
      config,
      schema: {
        tags,
        summary: 'Search synonym groups',
        params: projectParams,
        response: { 200: synonymGroupListSchema, ...errors },
      },
    },
    async (request) => listSynonymGroups(db, (await actor(request)).projectId),
  );

  app.post(
    P,
    {
      config,
      schema: {
        tags,
        summary: 'Adds a synonym group',
        params: projectParams,
        body: synonymGroupInputSchema,
        response: { 201: synonymGroupSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request);
      return reply.status(201).send(await createSynonymGroup(db, a, request.body, app.clock.now()));
    },
  );

  app.post(
    `${P}/suggested`,
    {
      config,
      schema: {
        tags,
        summary: 'Adds the suggested synonym groups that share no word with existing ones',
        params: projectParams,
        response: { 200: synonymGroupListSchema, ...errors },
      },
    },
    async (request) => addSuggestedGroups(db, await actor(request), app.clock.now()),
  );

  app.put(
    `${P}/:groupId`,
    {
      config,
      schema: {
        tags,
        summary: 'Replaces the words of a synonym group',
        params: groupParams,
        body: synonymGroupInputSchema,
        response: { 200: synonymGroupSchema, ...errors },
      },
    },
    async (request) =>
      updateSynonymGroup(db, await actor(request), request.params.groupId, request.body, app.clock.now()),
  );

  app.delete(
    `${P}/:groupId`,
    {
      config,
      schema: {
        tags,
        summary: 'Deletes a synonym group',
        params: groupParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteSynonymGroup(db, await actor(request), request.params.groupId, app.clock.now());
      return reply.status(204).send();
    },
  );
};
