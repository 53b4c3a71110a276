import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Issue 9: filled in by the datasets slice. */
export const monitoringDatasetRoutes: FastifyPluginAsyncZod = async () => {};
