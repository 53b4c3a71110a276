import {
  crActionPlanInputSchema,
  crFindingInputSchema,
  crFindingListQuerySchema,
  crFindingListSchema,
  crFindingMeasuresSchema,
  crFindingNoteInputSchema,
  crFindingSchema,
  crFindingSuggestionsQuerySchema,
  crFindingSuggestionsSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import {
  closeFinding,
  createFinding,
  findingMeasures,
  findingSuggestions,
  getFinding,
  listFindings,
  reopenFinding,
  savePlan,
} from './findings.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const programParams = projectParams.extend({ programId: pathId('programme') });
const findingParams = projectParams.extend({ findingId: pathId('finding') });

/**
 * Findings and corrective action plans (docs/chart-review.md "Findings and action plans"): everyone in chart review
 * reads them (section dashboard); the findings section records them, writes their plans, closes and reopens them.
 */
export const chartReviewFindingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);
  const today = () => app.clock.now();

  app.get(
    `${P}/programs/:programId/finding-suggestions`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: 'What falls below the programme target in a period and has no finding yet',
        params: programParams,
        querystring: crFindingSuggestionsQuerySchema,
        response: { 200: crFindingSuggestionsSchema, ...errors },
      },
    },
    async (request) =>
      findingSuggestions(db, await actor(request, 'dashboard'), request.params.programId, request.query.period),
  );

  app.get(
    `${P}/findings`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: "The project's findings, newest period first, with their plan's progress",
        params: projectParams,
        querystring: crFindingListQuerySchema,
        response: { 200: crFindingListSchema, ...errors },
      },
    },
    async (request) => listFindings(db, await actor(request, 'dashboard'), request.query, today()),
  );

  app.get(
    `${P}/findings/measures`,
    {
      config: { access: access.section('chart_review', 'findings') },
      schema: {
        tags,
        summary: "The project's live monitoring measures an action plan may follow",
        params: projectParams,
        response: { 200: crFindingMeasuresSchema, ...errors },
      },
    },
    async (request) => findingMeasures(db, await actor(request, 'findings')),
  );

  app.post(
    `${P}/programs/:programId/findings`,
    {
      config: { access: access.section('chart_review', 'findings') },
      schema: {
        tags,
        summary: 'Records a finding; its rate and n are computed from the period (409 when one is open)',
        params: programParams,
        body: crFindingInputSchema,
        response: { 201: crFindingSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'findings');
      return reply.status(201).send(await createFinding(db, a, request.params.programId, request.body, today()));
    },
  );

  app.get(
    `${P}/findings/:findingId`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: 'A finding with its action plan, measure and the state of its success rule',
        params: findingParams,
        response: { 200: crFindingSchema, ...errors },
      },
    },
    async (request) => getFinding(db, await actor(request, 'dashboard'), request.params.findingId, today()),
  );

  app.put(
    `${P}/findings/:findingId/plan`,
    {
      config: { access: access.section('chart_review', 'findings') },
      schema: {
        tags,
        summary: 'Replaces the action plan of a finding (not closed)',
        params: findingParams,
        body: crActionPlanInputSchema,
        response: { 200: crFindingSchema, ...errors },
      },
    },
    async (request) => savePlan(db, await actor(request, 'findings'), request.params.findingId, request.body, today()),
  );

  app.post(
    `${P}/findings/:findingId/close`,
    {
      config: { access: access.section('chart_review', 'findings') },
      schema: {
        tags,
        summary: 'Closes a finding with a note',
        params: findingParams,
        body: crFindingNoteInputSchema,
        response: { 200: crFindingSchema, ...errors },
      },
    },
    async (request) =>
      closeFinding(db, await actor(request, 'findings'), request.params.findingId, request.body.note, today()),
  );

  app.post(
    `${P}/findings/:findingId/reopen`,
    {
      config: { access: access.section('chart_review', 'findings') },
      schema: {
        tags,
        summary: 'Reopens a closed finding with a note (409 when the same finding is open again)',
        params: findingParams,
        body: crFindingNoteInputSchema,
        response: { 200: crFindingSchema, ...errors },
      },
    },
    async (request) =>
      reopenFinding(db, await actor(request, 'findings'), request.params.findingId, request.body.note, today()),
  );
};
