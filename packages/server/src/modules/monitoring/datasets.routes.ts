import multipart from '@fastify/multipart';
import {
  ACCESS_DENIED,
  datasetCreateSchema,
  datasetListSchema,
  datasetSchema,
  datasetUpdateSchema,
  errorBodySchema,
  IMPORT_MAX_BYTES,
  importDetailSchema,
  importListSchema,
  importSettingsSchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvHeaders, csvLine } from '../../lib/csv-export.js';
import { AppError } from '../../lib/errors.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { firstFilePart } from '../../lib/uploads.js';
import { access } from '../../policies/access.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import {
  createDataset,
  DATASET_READ_SECTIONS,
  datasetRowsCsv,
  deleteDataset,
  getDataset,
  listDatasets,
  loadDataset,
  updateDataset,
} from './datasets.service.js';
import {
  discardImport,
  getImport,
  importErrors,
  listImports,
  rollbackImport,
  saveImportSettings,
  startCommit,
  uploadImport,
} from './imports.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const datasetParams = projectParams.extend({ datasetId: pathId('dataset') });
const importParams = projectParams.extend({ importId: pathId('import') });
const CHOOSE_FILE = 'Choose a CSV file.';

/**
 * Datasets and CSV imports (issue 9; docs/monitoring.md "Datasets and CSV import"). Reading datasets is open to the
 * csv-import, formula-builder and page-charts sections (any one of them); imports and dataset changes need
 * csv-import, and the service asks monitoring administrators for patient-level, retention and delete.
 */
export const monitoringDatasetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  // The upload is streamed into the database: the limit is checked while reading, never by buffering.
  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_BYTES + 1, files: 1, fields: 5, fieldSize: 1000, parts: 6 },
  });
  const actor = actorFor(db);

  /** A reader of datasets: any one of the sections that work with them. */
  async function reader(request: FastifyRequest & { params: { projectId: number } }): Promise<MonitoringActor> {
    let denied: unknown;
    for (const section of DATASET_READ_SECTIONS) {
      try {
        return await actor(request, section);
      } catch (error) {
        // Only "this section is not for your role" tries the next section; 401, 404 and "no role" answer at once.
        if (!(error instanceof AppError && error.message === ACCESS_DENIED.forbidden)) throw error;
        denied = error;
      }
    }
    throw denied;
  }

  // ------------------------------------------------------------------ datasets

  app.get(
    `${P}/datasets`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: "The project's datasets, by name",
        params: projectParams,
        response: { 200: datasetListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await reader(request);
      return { datasets: await listDatasets(db, a) };
    },
  );

  app.post(
    `${P}/datasets`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: 'Creates an empty dataset (409 when the name is taken)',
        params: projectParams,
        body: datasetCreateSchema,
        response: { 201: datasetSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'csv-import');
      return reply.status(201).send(await createDataset(db, a, request.body, app.clock.now()));
    },
  );

  app.get(
    `${P}/datasets/:datasetId`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: { tags, summary: 'A dataset', params: datasetParams, response: { 200: datasetSchema, ...errors } },
    },
    async (request) => {
      const a = await reader(request);
      return getDataset(db, a, request.params.datasetId);
    },
  );

  app.put(
    `${P}/datasets/:datasetId`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: 'Renames a dataset; monitoring administrators also mark it patient-level and set its retention',
        params: datasetParams,
        body: datasetUpdateSchema,
        response: { 200: datasetSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'csv-import');
      return updateDataset(db, a, request.params.datasetId, request.body, app.clock.now());
    },
  );

  app.delete(
    `${P}/datasets/:datasetId`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: 'Deletes a dataset no measure uses (monitoring administrators)',
        params: datasetParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'csv-import');
      await deleteDataset(db, a, request.params.datasetId, app.clock.now());
      return reply.status(204).send();
    },
  );

  app.get(
    `${P}/datasets/:datasetId/rows.csv`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: "The dataset's active rows as CSV (time column first; cells starting with = + - @ are escaped)",
        params: datasetParams,
      },
    },
    async (request, reply) => {
      const a = await reader(request);
      const file = await datasetRowsCsv(app.database, a, request.params.datasetId, app.clock.now());
      return reply.headers(csvHeaders(file.fileName)).send(file.stream);
    },
  );

  // ------------------------------------------------------------------ imports

  app.post(
    `${P}/datasets/:datasetId/imports`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: 'Uploads a CSV file into a dataset (multipart field "file") and answers what was detected',
        params: datasetParams,
        response: { 201: importDetailSchema, ...errors, 413: errorBodySchema },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'csv-import');
      // 404 before a byte of the file is read.
      await loadDataset(db, a.projectId, request.params.datasetId);
      if (!request.isMultipart()) {
        throw new AppError('VALIDATION_FAILED', 'Send the file as multipart/form-data in the field "file".', {
          file: [CHOOSE_FILE],
        });
      }
      const part = await firstFilePart(request);
      if (part?.fieldname !== 'file') {
        throw new AppError('VALIDATION_FAILED', CHOOSE_FILE, { file: [CHOOSE_FILE] });
      }
      const detail = await uploadImport(
        db,
        a,
        request.params.datasetId,
        { fileName: part.filename ?? '', stream: part.file },
        app.clock.now(),
      );
      return reply.status(201).send(detail);
    },
  );

  app.get(
    `${P}/datasets/:datasetId/imports`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: "A dataset's imports, newest first",
        params: datasetParams,
        response: { 200: importListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'csv-import');
      return { imports: await listImports(db, a, request.params.datasetId) };
    },
  );

  app.get(
    `${P}/imports/:importId`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: 'An import: what was detected, the settings with a preview, the outcome and its errors',
        params: importParams,
        response: { 200: importDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'csv-import');
      return getImport(db, a, request.params.importId);
    },
  );

  app.put(
    `${P}/imports/:importId/settings`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: "Saves an import's settings (mapping, types, time column, mode, error policy) and previews rows",
        params: importParams,
        body: importSettingsSchema,
        response: { 200: importDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'csv-import');
      return saveImportSettings(db, a, request.params.importId, request.body, app.clock.now());
    },
  );

  app.post(
    `${P}/imports/:importId/commit`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: 'Starts committing an import in the background (202; follow status and progress)',
        params: importParams,
        response: { 202: importDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'csv-import');
      return reply.status(202).send(await startCommit(db, a, request.params.importId, request.log, app.clock));
    },
  );

  app.post(
    `${P}/imports/:importId/rollback`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: 'Rolls back the latest committed import of a dataset: its rows go, the rows it replaced come back',
        params: importParams,
        response: { 200: importDetailSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'csv-import');
      return rollbackImport(db, a, request.params.importId, request.log, app.clock.now());
    },
  );

  app.delete(
    `${P}/imports/:importId`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: 'Discards an uploaded or failed import (its stored file)',
        params: importParams,
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'csv-import');
      await discardImport(db, a, request.params.importId, app.clock.now());
      return reply.status(204).send();
    },
  );

  app.get(
    `${P}/imports/:importId/errors.csv`,
    {
      config: { access: access.section('monitoring', 'csv-import') },
      schema: {
        tags,
        summary: "An import's row errors as CSV: line, column, value, reason (cells escaped)",
        params: importParams,
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const a = await actor(request, 'csv-import');
      const report = await importErrors(db, a, request.params.importId);
      const body =
        csvLine(['line', 'column', 'value', 'reason']) +
        report.errors.map((error) => csvLine([error.line, error.column, error.value, error.reason])).join('');
      return reply.headers(csvHeaders(report.fileName)).send(body);
    },
  );
};
