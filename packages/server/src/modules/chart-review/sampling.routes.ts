import multipart from '@fastify/multipart';
import {
  CR_UPLOAD_LIMITS,
  crDrawInputSchema,
  crExcludeInputSchema,
  crExcludeResultSchema,
  crLockInputSchema,
  crPullListQuerySchema,
  crRevealInputSchema,
  crRevealSchema,
  crReviewerUnitsInputSchema,
  crReviewerUnitsSchema,
  crSampleListSchema,
  crSampleSchema,
  errorBodySchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { csvHeaders } from '../../lib/csv-export.js';
import { AppError } from '../../lib/errors.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { getReviewerUnits, lockSample, putReviewerUnits } from './assign.service.js';
import { excludeCase, revealRef } from './cases.service.js';
import { loadProgram } from './programs.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';
import { drawSampleCases, getSample, listSamples, pullListCsv, rankedCsv, uploadSample } from './sampling.service.js';

const programParams = projectParams.extend({ programId: pathId('programme') });
const sampleParams = projectParams.extend({ sampleId: pathId('sample') });
const caseParams = projectParams.extend({ caseId: pathId('case') });
const CHOOSE_FILE = 'Choose the eligible-case list (a CSV file).';
const TOO_LARGE = `The file is larger than ${CR_UPLOAD_LIMITS.bytes / 1024 / 1024} MB.`;

/**
 * Sampling (docs/chart-review.md "Sampling"): everyone in chart review reads samples (section dashboard); the
 * sampling section uploads lists, draws, excludes, locks and downloads the pull list; revealing an encounter
 * reference belongs to the review section; the units of reviewers are read by all and changed in settings.
 */
export const chartReviewSamplingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(multipart, {
    limits: { fileSize: CR_UPLOAD_LIMITS.bytes, files: 1, fields: 4, fieldSize: 1000, parts: 5 },
  });
  const actor = actorFor(db);

  /** The period and the file of an upload, in any order. */
  async function readUpload(request: FastifyRequest) {
    if (!request.isMultipart()) {
      throw new AppError('VALIDATION_FAILED', 'Send the list as multipart/form-data in the field "file".', {
        file: [CHOOSE_FILE],
      });
    }
    let data: Buffer | null = null;
    let fileName = '';
    let periodStart = '';
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file') {
            part.file.resume();
            continue;
          }
          data = await part.toBuffer();
          fileName = part.filename ?? '';
        } else if (part.fieldname === 'period_start' && typeof part.value === 'string') {
          periodStart = part.value;
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE, { file: [TOO_LARGE] });
      if ((error as { statusCode?: number }).statusCode && (error as { statusCode: number }).statusCode < 500) {
        throw new AppError('VALIDATION_FAILED', CHOOSE_FILE, { file: [CHOOSE_FILE] });
      }
      throw error;
    }
    if (!periodStart.trim()) {
      throw new AppError('VALIDATION_FAILED', 'Choose the period of the list.', {
        period_start: ['Choose the period of the list.'],
      });
    }
    if (!data) throw new AppError('VALIDATION_FAILED', CHOOSE_FILE, { file: [CHOOSE_FILE] });
    return { data, fileName, periodStart };
  }

  app.get(
    `${P}/programs/:programId/samples`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: "A programme's samples by period, newest first, with their status and counts",
        params: programParams,
        response: { 200: crSampleListSchema, ...errors },
      },
    },
    async (request) => listSamples(db, await actor(request, 'dashboard'), request.params.programId),
  );

  app.post(
    `${P}/programs/:programId/samples`,
    {
      config: { access: access.section('chart_review', 'sampling') },
      schema: {
        tags,
        summary:
          'Uploads the eligible-case list of a period (multipart: period_start, file); replaces a list not yet locked',
        params: programParams,
        response: { 201: crSampleSchema, ...errors, 413: errorBodySchema },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'sampling');
      // 404 before a byte of the file is read.
      await loadProgram(db, a.projectId, request.params.programId);
      const upload = await readUpload(request);
      return reply
        .status(201)
        .send(await uploadSample(db, a, app.appKey, request.params.programId, upload, app.clock.now()));
    },
  );

  app.get(
    `${P}/samples/:sampleId`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: 'A sample: provenance, plan and draw, the selected and excluded cases with their reviews',
        params: sampleParams,
        response: { 200: crSampleSchema, ...errors },
      },
    },
    async (request) => getSample(db, await actor(request, 'dashboard'), request.params.sampleId),
  );

  app.get(
    `${P}/samples/:sampleId/ranked.csv`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: 'The whole ranked list with the seed, algorithm and file SHA-256 (cells escaped)',
        params: sampleParams,
      },
    },
    async (request, reply) => {
      const file = await rankedCsv(db, await actor(request, 'dashboard'), request.params.sampleId);
      return reply.headers(csvHeaders(file.fileName)).send(file.text);
    },
  );

  app.post(
    `${P}/samples/:sampleId/draw`,
    {
      config: { access: access.section('chart_review', 'sampling') },
      schema: {
        tags,
        summary: "Draws the sample (the programme's plan and a new seed unless given); clears exclusions",
        params: sampleParams,
        body: crDrawInputSchema,
        response: { 200: crSampleSchema, ...errors },
      },
    },
    async (request) =>
      drawSampleCases(
        db,
        await actor(request, 'sampling'),
        app.appKey,
        request.params.sampleId,
        request.body,
        app.clock.now(),
      ),
  );

  app.post(
    `${P}/cases/:caseId/exclude`,
    {
      config: { access: access.section('chart_review', 'sampling') },
      schema: {
        tags,
        summary: 'Excludes a selected case with a reason; the next ranked case of its stratum replaces it',
        params: caseParams,
        body: crExcludeInputSchema,
        response: { 200: crExcludeResultSchema, ...errors },
      },
    },
    async (request) =>
      excludeCase(db, await actor(request, 'sampling'), request.params.caseId, request.body.reason, app.clock.now()),
  );

  app.post(
    `${P}/samples/:sampleId/lock`,
    {
      config: { access: access.section('chart_review', 'sampling') },
      schema: {
        tags,
        summary: 'Locks a drawn sample and assigns its reviews (round robin or by unit; second reviews; purge)',
        params: sampleParams,
        body: crLockInputSchema,
        response: { 200: crSampleSchema, ...errors },
      },
    },
    async (request) =>
      lockSample(db, await actor(request, 'sampling'), request.params.sampleId, request.body, app.clock.now()),
  );

  app.get(
    `${P}/samples/:sampleId/pull-list.csv`,
    {
      config: { access: access.section('chart_review', 'sampling') },
      schema: {
        tags,
        summary: 'The selected cases with their encounter references (logged with the reason; cells escaped)',
        params: sampleParams,
        querystring: crPullListQuerySchema,
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'sampling');
      const file = await pullListCsv(db, a, app.appKey, request.params.sampleId, request.query.reason, app.clock.now());
      return reply.headers(csvHeaders(file.fileName)).send(file.text);
    },
  );

  app.post(
    `${P}/cases/:caseId/reveal`,
    {
      config: { access: access.section('chart_review', 'review') },
      schema: {
        tags,
        summary: "Reveals a case's encounter reference to a reveal role (logged with the reason)",
        params: caseParams,
        body: crRevealInputSchema,
        response: { 200: crRevealSchema, ...errors },
      },
    },
    async (request, reply) => {
      const revealed = await revealRef(
        db,
        await actor(request, 'review'),
        app.appKey,
        request.params.caseId,
        request.body.reason,
        app.clock.now(),
      );
      return reply.header('cache-control', 'no-store').send(revealed);
    },
  );

  app.get(
    `${P}/reviewer-units`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: 'The units each reviewer works on (the conflict-of-interest rule)',
        params: projectParams,
        response: { 200: crReviewerUnitsSchema, ...errors },
      },
    },
    async (request) => getReviewerUnits(db, await actor(request, 'dashboard')),
  );

  app.put(
    `${P}/reviewer-units`,
    {
      config: { access: access.section('chart_review', 'settings') },
      schema: {
        tags,
        summary: 'Replaces the units of every reviewer',
        params: projectParams,
        body: crReviewerUnitsInputSchema,
        response: { 200: crReviewerUnitsSchema, ...errors },
      },
    },
    async (request) => putReviewerUnits(db, await actor(request, 'settings'), request.body, app.clock.now()),
  );
};
