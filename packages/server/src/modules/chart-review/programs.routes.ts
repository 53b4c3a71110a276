import { crProgramInputSchema, crProgramListSchema, crProgramSchema } from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { createProgram, getProgram, listPrograms, updateProgram } from './programs.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const programParams = projectParams.extend({ programId: pathId('programme') });

/**
 * Programmes (docs/chart-review.md "Server calls"): everyone in chart review reads them (section dashboard); the
 * programs section creates and changes them.
 */
export const chartReviewProgramRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/programs`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: "The project's programmes, by name",
        params: projectParams,
        response: { 200: crProgramListSchema, ...errors },
      },
    },
    async (request) => listPrograms(db, await actor(request, 'dashboard')),
  );

  app.post(
    `${P}/programs`,
    {
      config: { access: access.section('chart_review', 'programs') },
      schema: {
        tags,
        summary: 'Creates a programme (409 when the name is taken)',
        params: projectParams,
        body: crProgramInputSchema,
        response: { 201: crProgramSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'programs');
      return reply.status(201).send(await createProgram(db, a, request.body, app.clock.now()));
    },
  );

  app.get(
    `${P}/programs/:programId`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: 'A programme with its tool, the version in use, owner and measure',
        params: programParams,
        response: { 200: crProgramSchema, ...errors },
      },
    },
    async (request) => getProgram(db, await actor(request, 'dashboard'), request.params.programId),
  );

  app.put(
    `${P}/programs/:programId`,
    {
      config: { access: access.section('chart_review', 'programs') },
      schema: {
        tags,
        summary: 'Replaces the settings of a programme',
        params: programParams,
        body: crProgramInputSchema,
        response: { 200: crProgramSchema, ...errors },
      },
    },
    async (request) =>
      updateProgram(db, await actor(request, 'programs'), request.params.programId, request.body, app.clock.now()),
  );
};
