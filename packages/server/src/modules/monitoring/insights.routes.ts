import {
  insightCreateSchema,
  insightDetailSchema,
  insightListSchema,
  insightRevisionsSchema,
  insightSchema,
  insightUpdateSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import {
  createInsight,
  deleteInsight,
  getInsight,
  insightRevisions,
  listInsights,
  updateInsight,
} from './insights.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const pageParams = projectParams.extend({ pageId: pathId('page') });
const insightParams = projectParams.extend({ insightId: pathId('insight') });

/** Key insights of pages (issue 8; docs/monitoring.md "Key insights"). */
export const monitoringInsightRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/pages/:pageId/insights`,
    {
      config: { keptAnswer: true, access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: "A page's key insights: published ones, and drafts for those who may edit the page",
        params: pageParams,
        response: { 200: insightListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'pages');
      return { insights: await listInsights(db, a, request.params.pageId) };
    },
  );

  app.post(
    `${P}/pages/:pageId/insights`,
    {
      config: { access: access.section('monitoring', 'key-insights') },
      schema: {
        tags,
        summary: 'Adds a key insight to a page (a draft or published)',
        params: pageParams,
        body: insightCreateSchema,
        response: { 201: insightSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'key-insights');
      return reply.status(201).send(await createInsight(db, a, request.params.pageId, request.body, app.clock.now()));
    },
  );

  app.get(
    `${P}/insights/:insightId`,
    {
      config: { access: access.section('monitoring', 'key-insights') },
      schema: {
        tags,
        summary: 'A key insight with its page, for editing',
        params: insightParams,
        response: { 200: insightDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'key-insights');
      return getInsight(db, a, request.params.insightId);
    },
  );

  app.put(
    `${P}/insights/:insightId`,
    {
      config: { access: access.section('monitoring', 'key-insights') },
      schema: {
        tags,
        summary: 'Changes, publishes or unpublishes a key insight (409 when the version is stale)',
        params: insightParams,
        body: insightUpdateSchema,
        response: { 200: insightDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'key-insights');
      return updateInsight(db, a, request.params.insightId, request.body, app.clock.now());
    },
  );

  app.delete(
    `${P}/insights/:insightId`,
    {
      config: { access: access.section('monitoring', 'key-insights') },
      schema: {
        tags,
        summary: 'Deletes a key insight (its history stays)',
        params: insightParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'key-insights');
      await deleteInsight(db, a, request.params.insightId, app.clock.now());
      return reply.status(204).send();
    },
  );

  app.get(
    `${P}/insights/:insightId/revisions`,
    {
      config: { access: access.section('monitoring', 'key-insights') },
      schema: {
        tags,
        summary: 'Every saved state of a key insight, newest first',
        params: insightParams,
        response: { 200: insightRevisionsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'key-insights');
      return { revisions: await insightRevisions(db, a, request.params.insightId) };
    },
  );
};
