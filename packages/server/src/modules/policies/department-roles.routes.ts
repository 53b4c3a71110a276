import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Department reviewers, signers and readers, department health and attestation reports (issue 7). */
export const departmentRoleRoutes: FastifyPluginAsyncZod = async () => {};
