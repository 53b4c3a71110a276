import {
  crPublishInputSchema,
  crQuestionsInputSchema,
  crToolInputSchema,
  crToolListSchema,
  crToolSchema,
  crToolUpdateSchema,
  crToolVersionSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { actorFor, errors, P, tags } from './route-kit.js';
import {
  createTool,
  createVersion,
  discardVersion,
  getTool,
  getVersion,
  listTools,
  publishVersion,
  replaceQuestions,
  updateTool,
} from './tools.service.js';

const toolParams = projectParams.extend({ toolId: pathId('tool') });
const versionParams = projectParams.extend({ versionId: pathId('tool version') });

/**
 * Audit tools with versions and questions (docs/chart-review.md "Server calls"). Every call, reading included, needs
 * the tools section: reviewers see a version's questions through their review form, not here.
 */
export const chartReviewToolRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/tools`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: "The project's audit tools, those in use first, by name; retired ones flagged",
        params: projectParams,
        response: { 200: crToolListSchema, ...errors },
      },
    },
    async (request) => listTools(db, await actor(request, 'tools')),
  );

  app.post(
    `${P}/tools`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: 'Creates a tool with an empty draft version 1 (409 when the name is taken)',
        params: projectParams,
        body: crToolInputSchema,
        response: { 201: crToolSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'tools');
      return reply.status(201).send(await createTool(db, a, request.body, app.clock.now()));
    },
  );

  app.get(
    `${P}/tools/:toolId`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: 'A tool with its versions, newest first',
        params: toolParams,
        response: { 200: crToolSchema, ...errors },
      },
    },
    async (request) => getTool(db, await actor(request, 'tools'), request.params.toolId),
  );

  app.put(
    `${P}/tools/:toolId`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: "Changes a tool's name and purpose, retires it or brings it back into use",
        params: toolParams,
        body: crToolUpdateSchema,
        response: { 200: crToolSchema, ...errors },
      },
    },
    async (request) =>
      updateTool(db, await actor(request, 'tools'), request.params.toolId, request.body, app.clock.now()),
  );

  app.post(
    `${P}/tools/:toolId/versions`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: 'Starts a new draft version, a copy of the latest version (409 when a draft exists)',
        params: toolParams,
        response: { 201: crToolVersionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'tools');
      return reply.status(201).send(await createVersion(db, a, request.params.toolId, app.clock.now()));
    },
  );

  app.get(
    `${P}/tool-versions/:versionId`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: 'A tool version with its questions in order',
        params: versionParams,
        response: { 200: crToolVersionSchema, ...errors },
      },
    },
    async (request) => getVersion(db, await actor(request, 'tools'), request.params.versionId),
  );

  app.put(
    `${P}/tool-versions/:versionId/questions`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: "Replaces a draft's questions (order = position); 409 for a published or frozen version",
        params: versionParams,
        body: crQuestionsInputSchema,
        response: { 200: crToolVersionSchema, ...errors },
      },
    },
    async (request) =>
      replaceQuestions(
        db,
        await actor(request, 'tools'),
        request.params.versionId,
        request.body.questions,
        app.clock.now(),
      ),
  );

  app.post(
    `${P}/tool-versions/:versionId/publish`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: 'Publishes a draft; the version published before it is retired',
        params: versionParams,
        body: crPublishInputSchema,
        response: { 200: crToolVersionSchema, ...errors },
      },
    },
    async (request) =>
      publishVersion(db, await actor(request, 'tools'), request.params.versionId, request.body, app.clock.now()),
  );

  app.delete(
    `${P}/tool-versions/:versionId`,
    {
      config: { access: access.section('chart_review', 'tools') },
      schema: {
        tags,
        summary: 'Discards a draft after the first version',
        params: versionParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await discardVersion(db, await actor(request, 'tools'), request.params.versionId, app.clock.now());
      return reply.status(204).send();
    },
  );
};
