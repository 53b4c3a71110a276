import {
  stdCreatedSchema,
  stdCrosswalkImportedSchema,
  stdCrosswalkImportSchema,
  stdCrosswalkListSchema,
  stdUpgradeSchema,
} from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { importCrosswalk, listCrosswalks, upgradeAssessment } from './crosswalk.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

/**
 * Crosswalks between frameworks and editions, and the edition upgrade of an assessment through them (issue 11;
 * docs/standards.md "Crosswalks and edition upgrades").
 */
export const standardsCrosswalkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/crosswalks`,
    {
      config: { access: access.standards('allow') },
      schema: {
        tags,
        summary: 'The crosswalks the project sees: built in and its own, by source and target framework',
        params: projectParams,
        response: { 200: stdCrosswalkListSchema, ...errors },
      },
    },
    async (request) => listCrosswalks(db, await actor(request)),
  );

  app.post(
    `${P}/crosswalks/import`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary:
          "Imports a crosswalk from CSV, replacing the project's own mappings between the two frameworks (standards admins)",
        params: projectParams,
        body: stdCrosswalkImportSchema,
        response: { 200: stdCrosswalkImportedSchema, ...errors },
      },
      bodyLimit: 1_500_000,
    },
    async (request) => importCrosswalk(db, await actor(request), request.body, app.clock.now()),
  );

  app.post(
    `${P}/assessments/:id/upgrade`,
    {
      config: { access: access.standards(403) },
      schema: {
        tags,
        summary:
          'Upgrades an assessment to another edition through a crosswalk: mapped elements carry their results as in review',
        params: projectParams.extend({ id: pathId('assessment') }),
        body: stdUpgradeSchema,
        response: { 201: stdCreatedSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await upgradeAssessment(db, await actor(request), request.params.id, request.body, app.clock.now())),
  );
};
