import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The review, signature and attestation workflow, tasks, bulk actions and the dashboard (issue 7). */
export const workflowRoutes: FastifyPluginAsyncZod = async () => {};
