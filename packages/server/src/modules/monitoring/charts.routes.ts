import {
  chartCreateSchema,
  chartListSchema,
  chartSchema,
  chartUpdateSchema,
  errorBodySchema,
  insightDraftSchema,
  measureSummaryListSchema,
  SPC_CHARTS,
  SPC_RULE_SETS,
  seriesSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { createChart, deleteChart, getChart, listCharts, measureSummary, updateChart } from './charts.service.js';
import { draftInsight } from './insight-draft.js';
import { actorFor, errors as monitoringErrors, P, tags } from './route-kit.js';
import { getSeries, seriesCsv } from './series.service.js';

const errors = { ...monitoringErrors, 422: errorBodySchema };
const pageParams = projectParams.extend({ pageId: pathId('page') });
const measureParams = projectParams.extend({ measureId: pathId('measure') });
const chartParams = projectParams.extend({ chartId: pathId('chart') });
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-03-31.');

const seriesQuery = z.object({
  chart: z.enum(SPC_CHARTS, { error: `Choose a chart: ${SPC_CHARTS.join(', ')}.` }).optional(),
  /** A value of the measure's first stratum column; absent or empty = all rows. */
  stratum: z.string().max(200, 'A stratum is at most 200 characters.').optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  rule_profile: z.enum(SPC_RULE_SETS, { error: `Choose rules: ${SPC_RULE_SETS.join(', ')}.` }).optional(),
});

/**
 * Series, the page's measure summary, charts of pages and key-insight drafts (issue 9; docs/monitoring.md
 * "Series and charts"). Reads need the pages section and view access to the page; chart changes need the
 * add-page-chart or edit-page-chart section and edit access; drafts need key-insights and edit access.
 */
export const monitoringChartRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/measures/:measureId/series`,
    {
      config: { keptAnswer: true, access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: "A measure's series: points with centre line, limits, signals, variation and assurance",
        params: measureParams,
        querystring: seriesQuery,
        response: { 200: seriesSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'pages');
      return getSeries(db, a, request.params.measureId, request.query, app.clock.now());
    },
  );

  app.get(
    `${P}/measures/:measureId/series.csv`,
    {
      config: { access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: "A measure's series as CSV (small strata cells without numerator and denominator)",
        params: measureParams,
        querystring: seriesQuery,
        // 200 is text/csv.
        response: errors,
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'pages');
      const csv = await seriesCsv(db, a, request.params.measureId, request.query, app.clock.now());
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${csv.fileName}"`)
        .send(csv.body as never);
    },
  );

  app.get(
    `${P}/pages/:pageId/measure-summary`,
    {
      config: { keptAnswer: true, access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: 'One line per measure of a page: latest value and n, target, benchmark, variation, sparkline',
        params: pageParams,
        response: { 200: measureSummaryListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'pages');
      return measureSummary(db, a, request.params.pageId, app.clock.now());
    },
  );

  app.get(
    `${P}/pages/:pageId/charts`,
    {
      config: { keptAnswer: true, access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: "A page's charts in page order",
        params: pageParams,
        response: { 200: chartListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'pages');
      return listCharts(db, a, request.params.pageId);
    },
  );

  app.post(
    `${P}/pages/:pageId/charts`,
    {
      config: { access: access.section('monitoring', 'add-page-chart') },
      schema: {
        tags,
        summary: "Adds a chart of one of the page's measures (last on the page)",
        params: pageParams,
        body: chartCreateSchema,
        response: { 201: chartSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'add-page-chart');
      return reply.status(201).send(await createChart(db, a, request.params.pageId, request.body, app.clock.now()));
    },
  );

  app.get(
    `${P}/charts/:chartId`,
    {
      config: { access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: 'A chart of a page',
        params: chartParams,
        response: { 200: chartSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'pages');
      return getChart(db, a, request.params.chartId);
    },
  );

  app.put(
    `${P}/charts/:chartId`,
    {
      config: { access: access.section('monitoring', 'edit-page-chart') },
      schema: {
        tags,
        summary: 'Changes or moves a chart (409 when the version is stale)',
        params: chartParams,
        body: chartUpdateSchema,
        response: { 200: chartSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'edit-page-chart');
      return updateChart(db, a, request.params.chartId, request.body, app.clock.now());
    },
  );

  app.delete(
    `${P}/charts/:chartId`,
    {
      config: { access: access.section('monitoring', 'edit-page-chart') },
      schema: {
        tags,
        summary: 'Removes a chart from its page',
        params: chartParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'edit-page-chart');
      await deleteChart(db, a, request.params.chartId, app.clock.now());
      return reply.status(204).send();
    },
  );

  app.post(
    `${P}/pages/:pageId/insights/draft`,
    {
      config: { access: access.section('monitoring', 'key-insights') },
      schema: {
        tags,
        summary: "Drafts a key insight from the signals of the page's measures (never saved by this call)",
        params: pageParams,
        response: { 200: insightDraftSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'key-insights');
      return draftInsight(db, a, request.params.pageId, app.clock.now());
    },
  );
};
