import {
  annotationInputSchema,
  benchmarkInputSchema,
  formulaPreviewSchema,
  formulaValidateSchema,
  formulaValidationSchema,
  formulaVersionListSchema,
  measureCreateSchema,
  measureDetailSchema,
  measureListSchema,
  measureUpdateSchema,
  phaseCreateSchema,
  seriesSchema,
  targetCreateSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { previewFormulas, validateFormula } from './formulas.service.js';
import {
  addAnnotation,
  addBenchmark,
  addPhase,
  addTarget,
  removeAnnotation,
  removeBenchmark,
  removePhase,
  removeTarget,
  updateAnnotation,
  updateBenchmark,
} from './measure-parts.service.js';
import {
  createMeasure,
  deleteMeasure,
  formulaVersions,
  getMeasure,
  listMeasures,
  updateMeasure,
} from './measures.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const pageParams = projectParams.extend({ pageId: pathId('page') });
const measureParams = projectParams.extend({ measureId: pathId('measure') });
const targetParams = measureParams.extend({ targetId: pathId('target') });
const benchmarkParams = measureParams.extend({ benchmarkId: pathId('benchmark') });
const phaseParams = measureParams.extend({ phaseId: pathId('phase') });
const annotationParams = measureParams.extend({ annotationId: pathId('annotation') });

/** Measures of pages, their parts and the formula builder (issue 9; docs/monitoring.md "Measures and formulas"). */
export const monitoringMeasureRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);
  const detail = { 200: measureDetailSchema, ...errors };
  const created = { 201: measureDetailSchema, ...errors };

  app.get(
    `${P}/pages/:pageId/measures`,
    {
      config: { access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: "A page's measures in order, and whether the caller may change them",
        params: pageParams,
        response: { 200: measureListSchema, ...errors },
      },
    },
    async (request) => listMeasures(db, await actor(request, 'pages'), request.params.pageId),
  );

  app.post(
    `${P}/pages/:pageId/measures`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'Adds a measure to a page (formulas checked against the dataset; formula version 1)',
        params: pageParams,
        body: measureCreateSchema,
        response: created,
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'formula-builder');
      return reply.status(201).send(await createMeasure(db, a, request.params.pageId, request.body, app.clock.now()));
    },
  );

  app.get(
    `${P}/measures/:measureId`,
    {
      config: { access: access.section('monitoring', 'pages') },
      schema: { tags, summary: 'A measure with its page and parts', params: measureParams, response: detail },
    },
    async (request) => getMeasure(db, await actor(request, 'pages'), request.params.measureId),
  );

  app.put(
    `${P}/measures/:measureId`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'Changes a measure (409 when stale); a changed definition records a formula version',
        params: measureParams,
        body: measureUpdateSchema,
        response: detail,
      },
    },
    async (request) =>
      updateMeasure(
        db,
        await actor(request, 'formula-builder'),
        request.params.measureId,
        request.body,
        app.clock.now(),
      ),
  );

  app.delete(
    `${P}/measures/:measureId`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'Deletes a measure and its charts (its history stays)',
        params: measureParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteMeasure(db, await actor(request, 'formula-builder'), request.params.measureId, app.clock.now());
      return reply.status(204).send();
    },
  );

  app.get(
    `${P}/measures/:measureId/formula-versions`,
    {
      config: { access: access.section('monitoring', 'pages') },
      schema: {
        tags,
        summary: 'Every definition a measure has had, newest first',
        params: measureParams,
        response: { 200: formulaVersionListSchema, ...errors },
      },
    },
    async (request) => ({
      versions: await formulaVersions(db, await actor(request, 'pages'), request.params.measureId),
    }),
  );

  app.post(
    `${P}/formulas/validate`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: "Checks one formula against a dataset's columns, explains it and previews the last 12 periods",
        params: projectParams,
        body: formulaValidateSchema,
        response: { 200: formulaValidationSchema, ...errors },
      },
    },
    async (request) => validateFormula(db, await actor(request, 'formula-builder'), request.body),
  );

  app.post(
    `${P}/formulas/preview`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'An unsaved measure computed on the current rows, with its control chart reading',
        params: projectParams,
        body: formulaPreviewSchema,
        response: { 200: seriesSchema, ...errors },
      },
    },
    async (request) => previewFormulas(db, await actor(request, 'formula-builder'), request.body, app.clock.now()),
  );

  // Parts of a measure: all answer the whole measure.
  const edit = (request: FastifyRequest & { params: { projectId: number } }) => actor(request, 'formula-builder');

  app.post(
    `${P}/measures/:measureId/targets`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: { tags, summary: 'Adds a target', params: measureParams, body: targetCreateSchema, response: created },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addTarget(db, await edit(request), request.params.measureId, request.body, app.clock.now())),
  );

  app.delete(
    `${P}/measures/:measureId/targets/:targetId`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: { tags, summary: 'Removes a target', params: targetParams, response: detail },
    },
    async (request) =>
      removeTarget(db, await edit(request), request.params.measureId, request.params.targetId, app.clock.now()),
  );

  app.post(
    `${P}/measures/:measureId/benchmarks`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'Adds a benchmark',
        params: measureParams,
        body: benchmarkInputSchema,
        response: created,
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addBenchmark(db, await edit(request), request.params.measureId, request.body, app.clock.now())),
  );

  app.put(
    `${P}/measures/:measureId/benchmarks/:benchmarkId`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'Changes a benchmark',
        params: benchmarkParams,
        body: benchmarkInputSchema,
        response: detail,
      },
    },
    async (request) =>
      updateBenchmark(
        db,
        await edit(request),
        request.params.measureId,
        request.params.benchmarkId,
        request.body,
        app.clock.now(),
      ),
  );

  app.delete(
    `${P}/measures/:measureId/benchmarks/:benchmarkId`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: { tags, summary: 'Removes a benchmark', params: benchmarkParams, response: detail },
    },
    async (request) =>
      removeBenchmark(db, await edit(request), request.params.measureId, request.params.benchmarkId, app.clock.now()),
  );

  app.post(
    `${P}/measures/:measureId/phases`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'Starts a phase (new centre line and limits) at a period; 409 when one starts there',
        params: measureParams,
        body: phaseCreateSchema,
        response: created,
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addPhase(db, await edit(request), request.params.measureId, request.body, app.clock.now())),
  );

  app.delete(
    `${P}/measures/:measureId/phases/:phaseId`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: { tags, summary: 'Removes a phase', params: phaseParams, response: detail },
    },
    async (request) =>
      removePhase(db, await edit(request), request.params.measureId, request.params.phaseId, app.clock.now()),
  );

  app.post(
    `${P}/measures/:measureId/annotations`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'Adds a note on a period (a data issue may leave its point out of the limits)',
        params: measureParams,
        body: annotationInputSchema,
        response: created,
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await addAnnotation(db, await edit(request), request.params.measureId, request.body, app.clock.now())),
  );

  app.put(
    `${P}/measures/:measureId/annotations/:annotationId`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: {
        tags,
        summary: 'Changes a note',
        params: annotationParams,
        body: annotationInputSchema,
        response: detail,
      },
    },
    async (request) =>
      updateAnnotation(
        db,
        await edit(request),
        request.params.measureId,
        request.params.annotationId,
        request.body,
        app.clock.now(),
      ),
  );

  app.delete(
    `${P}/measures/:measureId/annotations/:annotationId`,
    {
      config: { access: access.section('monitoring', 'formula-builder') },
      schema: { tags, summary: 'Removes a note', params: annotationParams, response: detail },
    },
    async (request) =>
      removeAnnotation(db, await edit(request), request.params.measureId, request.params.annotationId, app.clock.now()),
  );
};
