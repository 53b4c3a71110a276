import { crSettingsInputSchema, crSettingsSchema } from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { actorFor, errors, P, tags } from './route-kit.js';
import { getSettings, updateSettings } from './settings.service.js';

/**
 * The project's chart review settings (docs/chart-review.md "Server calls"). Everyone in chart review reads them
 * (section dashboard: the review form needs the privilege label); the settings section changes them.
 */
export const chartReviewSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/settings`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: "The project's chart review settings (created with the defaults on first read)",
        params: projectParams,
        response: { 200: crSettingsSchema, ...errors },
      },
    },
    async (request) => getSettings(db, await actor(request, 'dashboard')),
  );

  app.put(
    `${P}/settings`,
    {
      config: { access: access.section('chart_review', 'settings') },
      schema: {
        tags,
        summary: 'Replaces the chart review settings (chart review admins)',
        params: projectParams,
        body: crSettingsInputSchema,
        response: { 200: crSettingsSchema, ...errors },
      },
    },
    async (request) => updateSettings(db, await actor(request, 'settings'), request.body, app.clock.now()),
  );
};
