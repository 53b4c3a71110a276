import {
  crComplianceQuerySchema,
  crComplianceSchema,
  crDashboardListSchema,
  crDashboardQuerySchema,
  crDashboardSchema,
  crRangeQuerySchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { csvHeaders } from '../../lib/csv-export.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { exportResults, getCompliance, getDashboard, getDashboardList } from './dashboard.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const programParams = projectParams.extend({ programId: pathId('programme') });

/**
 * The programme dashboard, compliance figures and the de-identified export (docs/chart-review.md "Dashboard"):
 * everyone in chart review reads them (section dashboard).
 */
export const chartReviewDashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/dashboard`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: "Every programme with its latest period's compliance, all-or-none, progress and open findings",
        params: projectParams,
        response: { 200: crDashboardListSchema, ...errors },
      },
    },
    async (request) => getDashboardList(db, await actor(request, 'dashboard'), app.clock.now()),
  );

  app.get(
    `${P}/programs/:programId/dashboard`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary:
          "A programme's period: progress, compliance and all-or-none with n and 95 % intervals, questions, heat map, P chart, reliability and findings",
        params: programParams,
        querystring: crDashboardQuerySchema,
        response: { 200: crDashboardSchema, ...errors },
      },
    },
    async (request) =>
      getDashboard(
        db,
        await actor(request, 'dashboard'),
        request.params.programId,
        request.query.period,
        app.clock.now(),
      ),
  );

  app.get(
    `${P}/programs/:programId/compliance`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: 'Compliance with n and 95 % interval by question, unit or primary reviewer over a range of periods',
        params: programParams,
        querystring: crComplianceQuerySchema,
        response: { 200: crComplianceSchema, ...errors },
      },
    },
    async (request) => getCompliance(db, await actor(request, 'dashboard'), request.params.programId, request.query),
  );

  app.get(
    `${P}/programs/:programId/export.csv`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary:
          'The de-identified case results of a range of periods as CSV (privilege label first; cells starting with = + - @ are escaped); audited',
        params: programParams,
        querystring: crRangeQuerySchema,
        // 200 is text/csv.
        response: errors,
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'dashboard');
      const file = await exportResults(db, a, request.params.programId, request.query, app.clock.now());
      return reply.headers(csvHeaders(file.fileName)).send(file.body as never);
    },
  );
};
