import { userImportPreviewSchema, userImportRequestSchema, userImportStatusSchema } from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorAnswers } from '../../lib/error-answers.js';
import { pathId } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { actorOf } from '../members/members.service.js';
import { importPeople, importStatus, planImport } from './user-import.service.js';

/**
 * The superadmin's CSV import of people (docs/identity.md "Importing people"): check a file (nothing written), import
 * it (all rows or none), and follow the invitations going out.
 */
export const userImportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const config = { access: access.superadmin };

  app.post(
    '/super/users/import/preview',
    {
      config,
      schema: {
        tags: ['superadmin'],
        summary: 'Check a CSV file of people: every row with its problems in words; nothing is written',
        body: userImportRequestSchema,
        response: { 200: userImportPreviewSchema, ...errorAnswers(400, 401, 403) },
      },
      bodyLimit: 3_000_000,
    },
    async (request) => {
      superadminOf(request);
      return (await planImport(db, request.body.csv)).preview;
    },
  );

  app.post(
    '/super/users/import',
    {
      config,
      schema: {
        tags: ['superadmin'],
        summary: 'Import a CSV file of people (all rows or none) and send their invitations in the background',
        body: userImportRequestSchema,
        response: { 201: userImportStatusSchema, ...errorAnswers(400, 401, 403, 422) },
      },
      bodyLimit: 3_000_000,
    },
    async (request, reply) => {
      const actor = superadminOf(request);
      const status = await importPeople(db, request.body.csv, {
        actor: actorOf(request, actor.id),
        appUrl: app.config.APP_URL,
        now: app.clock.now(),
        mailer: app.mailer,
      });
      // The delivery worker sends the invitations; the screen follows them through GET .../imports/{id}.
      return reply.status(201).send(status);
    },
  );

  app.get(
    '/super/users/imports/:userImportId',
    {
      config,
      schema: {
        tags: ['superadmin'],
        summary: 'An import’s invitations: how many were sent or failed so far',
        params: z.object({ userImportId: pathId('import') }),
        response: { 200: userImportStatusSchema, ...errorAnswers(401, 403, 404) },
      },
    },
    async (request) => {
      superadminOf(request);
      return importStatus(db, request.params.userImportId);
    },
  );
};
