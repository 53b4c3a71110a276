import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationsApplied } from '../../db/migrate.js';
import { access } from '../../policies/access.js';

const readySchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: z.enum(['ok', 'unreachable']),
  migrations: z.enum(['ok', 'pending', 'unknown']),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      config: { access: access.public },
      schema: {
        tags: ['system'],
        summary: 'The process is alive',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { access: access.public },
      schema: {
        tags: ['system'],
        summary: 'The database is reachable and every migration is applied',
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      let database: 'ok' | 'unreachable' = 'unreachable';
      let migrations: 'ok' | 'pending' | 'unknown' = 'unknown';
      try {
        migrations = (await migrationsApplied(app.database.pool)) ? 'ok' : 'pending';
        database = 'ok';
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check could not reach the database');
      }
      const ready = database === 'ok' && migrations === 'ok' && !app.shuttingDown;
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', database, migrations });
    },
  );
};
