import { crAdjudicateInputSchema, crIrrPairSchema, crIrrProgramSchema, crIrrQuerySchema } from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pathId, projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { adjudicatePair, getPair, getProgramIrr } from './irr.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

const programParams = projectParams.extend({ programId: pathId('programme') });
const pairParams = projectParams.extend({ pairId: pathId('second review') });

/** Inter-rater reliability and adjudication (docs/chart-review.md "Reviews"): section irr. */
export const chartReviewIrrRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/programs/:programId/irr`,
    {
      config: { access: access.section('chart_review', 'irr') },
      schema: {
        tags,
        summary: "A programme's second reviews with agreement, kappa and PABAK per question (optionally one period)",
        params: programParams,
        querystring: crIrrQuerySchema,
        response: { 200: crIrrProgramSchema, ...errors },
      },
    },
    async (request) => getProgramIrr(db, await actor(request, 'irr'), request.params.programId, request.query.period),
  );

  app.get(
    `${P}/irr/:pairId`,
    {
      config: { access: access.section('chart_review', 'irr') },
      schema: {
        tags,
        summary: "A second review's disagreements side by side, for adjudication",
        params: pairParams,
        response: { 200: crIrrPairSchema, ...errors },
      },
    },
    async (request) => getPair(db, await actor(request, 'irr'), request.params.pairId),
  );

  app.post(
    `${P}/irr/:pairId/adjudicate`,
    {
      config: { access: access.section('chart_review', 'irr') },
      schema: {
        tags,
        summary: 'Chooses the final answer of every disagreeing question; the case counts again',
        params: pairParams,
        body: crAdjudicateInputSchema,
        response: { 200: crIrrPairSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'irr');
      await adjudicatePair(db, a, request.params.pairId, request.body, app.clock.now());
      return getPair(db, a, request.params.pairId);
    },
  );
};
