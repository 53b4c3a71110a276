import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Issue 9: filled in by the measures slice. */
export const monitoringMeasureRoutes: FastifyPluginAsyncZod = async () => {};
