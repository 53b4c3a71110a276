import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Issue 9: filled in by the charts slice. */
export const monitoringChartRoutes: FastifyPluginAsyncZod = async () => {};
