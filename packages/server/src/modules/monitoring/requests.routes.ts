import multipart from '@fastify/multipart';
import {
  dataRequestCommentCreateSchema,
  dataRequestCommentSchema,
  dataRequestCreateSchema,
  dataRequestDetailSchema,
  dataRequestListQuerySchema,
  dataRequestListSchema,
  dataRequestStewardsSchema,
  dataRequestUpdateSchema,
  errorBodySchema,
  REQUEST_FILE_MAX_BYTES,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { fileBytes, firstFilePart } from '../../lib/uploads.js';
import { access } from '../../policies/access.js';
import { withNotices } from '../notifications/notices.js';
import {
  addComment,
  createRequest,
  deliveredFile,
  deliverFile,
  getRequest,
  listRequests,
  listStewards,
  updateRequest,
} from './requests.service.js';
import { actorFor, errors as monitoringErrors, P, tags } from './route-kit.js';

const errors = { ...monitoringErrors, 413: errorBodySchema };
const requestParams = projectParams.extend({
  requestId: pathId('request'),
});
const FILE_TOO_LARGE = `The file is larger than ${REQUEST_FILE_MAX_BYTES / 1024 / 1024} MB. Compress it or split it.`;

/** Data requests ("Request Data") and the data stewards' queue (issue 8; docs/monitoring.md "Data requests"). */
export const monitoringRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  await app.register(multipart, {
    limits: { fileSize: REQUEST_FILE_MAX_BYTES, files: 1, fields: 5, fieldSize: 1000, parts: 6 },
  });
  const actor = actorFor(db);

  app.get(
    `${P}/requests`,
    {
      config: { access: access.section('monitoring', 'request-form') },
      schema: {
        tags,
        summary: "The actor's data requests (scope=mine) or, for data stewards, every request (scope=queue)",
        params: projectParams,
        querystring: dataRequestListQuerySchema,
        response: { 200: dataRequestListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'request-form');
      return { requests: await listRequests(db, a, request.query.scope, app.clock.now()) };
    },
  );

  app.get(
    `${P}/requests/stewards`,
    {
      config: { access: access.section('monitoring', 'request-queue') },
      schema: {
        tags,
        summary: 'The data stewards, who may be assigned a request',
        params: projectParams,
        response: { 200: dataRequestStewardsSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'request-queue');
      return { people: await listStewards(db, a.projectId) };
    },
  );

  app.post(
    `${P}/requests`,
    {
      config: { access: access.section('monitoring', 'request-form') },
      schema: {
        tags,
        summary: 'Files a data request; the data stewards are notified',
        params: projectParams,
        body: dataRequestCreateSchema,
        response: { 201: dataRequestDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'request-form');
      const now = app.clock.now();
      const id = await withNotices(db, app.mailer, a.projectId, now, (tx, notices) =>
        createRequest(tx, a, request.body, now, notices),
      );
      return reply.status(201).send(await getRequest(db, a, id, now));
    },
  );

  app.get(
    `${P}/requests/:requestId`,
    {
      config: { access: access.section('monitoring', 'request-form') },
      schema: {
        tags,
        summary: 'A data request with its comments (its requester and the data stewards)',
        params: requestParams,
        response: { 200: dataRequestDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'request-form');
      return getRequest(db, a, request.params.requestId, app.clock.now());
    },
  );

  app.patch(
    `${P}/requests/:requestId`,
    {
      config: { access: access.section('monitoring', 'request-form') },
      schema: {
        tags,
        summary: 'Changes the status, assignee or response of a data request (the requester may only cancel)',
        params: requestParams,
        body: dataRequestUpdateSchema,
        response: { 200: dataRequestDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'request-form');
      const now = app.clock.now();
      await withNotices(db, app.mailer, a.projectId, now, (tx, notices) =>
        updateRequest(tx, a, request.params.requestId, request.body, now, notices),
      );
      return getRequest(db, a, request.params.requestId, now);
    },
  );

  app.post(
    `${P}/requests/:requestId/comments`,
    {
      config: { access: access.section('monitoring', 'request-form') },
      schema: {
        tags,
        summary: 'Comments on a data request (its requester or a data steward)',
        params: requestParams,
        body: dataRequestCommentCreateSchema,
        response: { 201: dataRequestCommentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'request-form');
      const now = app.clock.now();
      const comment = await withNotices(db, app.mailer, a.projectId, now, (tx, notices) =>
        addComment(tx, a, request.params.requestId, request.body.body, now, notices),
      );
      return reply.status(201).send(comment);
    },
  );

  app.post(
    `${P}/requests/:requestId/file`,
    {
      config: { access: access.section('monitoring', 'request-queue') },
      schema: {
        tags,
        summary: 'Delivers the file of a data request (multipart field "file", at most 20 MB)',
        params: requestParams,
        response: { 200: dataRequestDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'request-queue');
      const upload = await readUpload(request);
      const now = app.clock.now();
      await withNotices(db, app.mailer, a.projectId, now, (tx, notices) =>
        deliverFile(tx, a, request.params.requestId, upload, now, notices),
      );
      return getRequest(db, a, request.params.requestId, now);
    },
  );

  app.get(
    `${P}/requests/:requestId/file`,
    {
      config: { access: access.section('monitoring', 'request-form') },
      schema: { tags, summary: 'Downloads the delivered file of a data request', params: requestParams },
    },
    async (request, reply) => {
      const a = await actor(request, 'request-form');
      const file = await deliveredFile(db, a, request.params.requestId);
      const name = file.fileName.replace(/[^\w .()-]/g, '_');
      return reply
        .header('content-type', file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.data);
    },
  );
};

/** The one file of a multipart request. */
async function readUpload(request: FastifyRequest) {
  if (!request.isMultipart()) {
    throw new AppError('VALIDATION_FAILED', 'Send the file as multipart/form-data in the field "file".', {
      file: ['Choose a file.'],
    });
  }
  const part = await firstFilePart(request);
  if (!part) throw new AppError('VALIDATION_FAILED', 'Choose a file.', { file: ['Choose a file.'] });
  const data = await fileBytes(part, FILE_TOO_LARGE);
  if (data.length === 0)
    throw new AppError('VALIDATION_FAILED', 'The file is empty.', { file: ['The file is empty.'] });
  const fileName = (part.filename ?? '').slice(0, 200) || 'delivered-file';
  return { data, fileName, contentType: part.mimetype || 'application/octet-stream' };
}
