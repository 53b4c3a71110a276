import { publicTermsSchema } from '@portal/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access } from '../../policies/access.js';
import { getPublicTerms } from './terms.service.js';

export const termsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/public/terms-and-conditions',
    {
      config: { access: access.public },
      schema: {
        tags: ['public'],
        summary: 'The newest published terms and conditions',
        description: 'Answers nulls when no version has been published yet.',
        response: { 200: publicTermsSchema },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(await getPublicTerms(app.database.db)),
  );
};
