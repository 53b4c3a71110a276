import {
  stdFindingInputSchema,
  stdFindingListQuerySchema,
  stdFindingListSchema,
  stdFindingNoteSchema,
  stdFindingSchema,
  stdFindingUpdateSchema,
  stdPlanInputSchema,
  stdReadinessSchema,
  stdTracerFindingInputSchema,
  stdTracerInputSchema,
  stdTracerListSchema,
  stdTracerSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { csvHeaders } from '../../lib/csv-export.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import {
  closeFinding,
  createFinding,
  getFinding,
  listFindings,
  reopenFinding,
  savePlan,
  updateFinding,
} from './findings.service.js';
import { gapReportCsv, readiness } from './readiness.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';
import { createTracer, getTracer, listTracers, recordTracerFinding, updateTracer } from './tracers.service.js';

/**
 * Standards findings on the SAFER matrix with their plans of correction, readiness and the gap report (issue 11,
 * part 2; docs/standards.md "Findings" and "Readiness").
 */
export const standardsFindingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);
  const now = () => app.clock.now();
  const assessmentParams = projectParams.extend({ id: pathId('assessment') });
  const findingParams = projectParams.extend({ id: pathId('finding') });

  app.get(
    `${P}/assessments/:id/findings`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'Findings of an assessment, overdue first',
        params: assessmentParams,
        querystring: stdFindingListQuerySchema,
        response: { 200: stdFindingListSchema, ...errors },
      },
    },
    async (request) => listFindings(db, await actor(request), request.params.id, request.query.status, now()),
  );

  app.post(
    `${P}/req-assessments/:id/findings`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Records a finding on an element (SAFER cell; due in 60 days, 3 for an immediate threat)',
        params: projectParams.extend({ id: pathId('element') }),
        body: stdFindingInputSchema,
        response: { 201: stdFindingSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createFinding(db, await actor(request), request.params.id, request.body, now())),
  );

  app.get(
    `${P}/findings/:id`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'A finding with its plan and the sustainment reading',
        params: findingParams,
        response: { 200: stdFindingSchema, ...errors },
      },
    },
    async (request) => getFinding(db, await actor(request), request.params.id, now()),
  );

  app.put(
    `${P}/findings/:id`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Corrects a finding (409 when it changed since `version`)',
        params: findingParams,
        body: stdFindingUpdateSchema,
        response: { 200: stdFindingSchema, ...errors },
      },
    },
    async (request) => updateFinding(db, await actor(request), request.params.id, request.body, now()),
  );

  app.put(
    `${P}/findings/:id/plan`,
    {
      config: { access: access.standards('record') },
      schema: {
        tags,
        summary: "Saves the finding's plan of correction and how it is sustained",
        params: findingParams,
        body: stdPlanInputSchema,
        response: { 200: stdFindingSchema, ...errors },
      },
    },
    async (request) => savePlan(db, await actor(request), request.params.id, request.body, now()),
  );

  app.post(
    `${P}/findings/:id/close`,
    {
      config: { access: access.standards('record') },
      schema: {
        tags,
        summary: 'Closes a finding whose actions are done and whose measure met its target',
        params: findingParams,
        body: stdFindingNoteSchema,
        response: { 200: stdFindingSchema, ...errors },
      },
    },
    async (request) => closeFinding(db, await actor(request), request.params.id, request.body.note, now()),
  );

  app.post(
    `${P}/findings/:id/reopen`,
    {
      config: { access: access.standards('record') },
      schema: {
        tags,
        summary: 'Reopens a closed finding',
        params: findingParams,
        body: stdFindingNoteSchema,
        response: { 200: stdFindingSchema, ...errors },
      },
    },
    async (request) => reopenFinding(db, await actor(request), request.params.id, request.body.note, now()),
  );

  app.get(
    `${P}/assessments/:id/readiness`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary:
          'Readiness: assessed in 12 months, compliance by chapter, SAFER grid, due corrections, policy evidence',
        params: assessmentParams,
        response: { 200: stdReadinessSchema, ...errors },
      },
    },
    async (request) => readiness(db, await actor(request), request.params.id, now()),
  );

  app.get(
    `${P}/assessments/:id/gap-report.csv`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'Every applicable element short of compliant, as CSV (cells starting with = + - @ escaped); audited',
        params: assessmentParams,
        // 200 is text/csv.
        response: errors,
      },
    },
    async (request, reply) => {
      const file = await gapReportCsv(db, await actor(request), request.params.id, now());
      return reply.headers(csvHeaders(file.filename)).send(file.body as never);
    },
  );

  const tracerParams = projectParams.extend({ id: pathId('tracer') });

  app.get(
    `${P}/assessments/:id/tracers`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'The tracers of an assessment, newest first, with their findings counted',
        params: assessmentParams,
        response: { 200: stdTracerListSchema, ...errors },
      },
    },
    async (request) => listTracers(db, await actor(request), request.params.id),
  );

  app.post(
    `${P}/assessments/:id/tracers`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Records a tracer (standards admins, chapter leads, mock assessors)',
        params: assessmentParams,
        body: stdTracerInputSchema,
        response: { 201: stdTracerSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createTracer(db, await actor(request), request.params.id, request.body, now())),
  );

  app.get(
    `${P}/tracers/:id`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'A tracer with its findings',
        params: tracerParams,
        response: { 200: stdTracerSchema, ...errors },
      },
    },
    async (request) => getTracer(db, await actor(request), request.params.id, now()),
  );

  app.put(
    `${P}/tracers/:id`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: 'Corrects a tracer',
        params: tracerParams,
        body: stdTracerInputSchema,
        response: { 200: stdTracerSchema, ...errors },
      },
    },
    async (request) => updateTracer(db, await actor(request), request.params.id, request.body, now()),
  );

  app.post(
    `${P}/tracers/:id/findings`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary: "Records a finding from the tracer on an element of its assessment (source 'tracer')",
        params: tracerParams,
        body: stdTracerFindingInputSchema,
        response: { 201: stdFindingSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await recordTracerFinding(db, await actor(request), request.params.id, request.body, now())),
  );
};
