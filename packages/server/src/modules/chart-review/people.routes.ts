import { crPeopleSchema } from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { projectParams } from '../../lib/path-id.js';
import { access } from '../../policies/access.js';
import { listPeople } from './people.service.js';
import { actorFor, errors, P, tags } from './route-kit.js';

/** The people of chart review, for owner and reviewer pickers (docs/chart-review.md "Server calls"). */
export const chartReviewPeopleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = actorFor(db);

  app.get(
    `${P}/people`,
    {
      config: { access: access.section('chart_review', 'dashboard') },
      schema: {
        tags,
        summary: 'Active members of the project with a chart review main role, by name',
        params: projectParams,
        response: { 200: crPeopleSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'dashboard');
      return listPeople(db, a.projectId);
    },
  );
};
