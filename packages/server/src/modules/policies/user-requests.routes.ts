import {
  errorBodySchema,
  type PolicySection,
  policyUserRequestCreateSchema,
  userRequestListSchema,
  userRequestSchema,
} from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userRequests } from '../../db/schema/index.js';
import { projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { policyAccess } from '../../policies/policy-management.js';
import { fileUserRequest, loadUserRequests } from '../superadmin/user-requests.service.js';

const P = '/api/projects/:projectId/policy-management/user-requests';
const SECTION = 'create-project-user' satisfies PolicySection;
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const tags = ['policy management'];

/**
 * New-user requests from policy management (SPEC section 2 "create-project-user"; docs/policies.md): a policy
 * administrator, who need not be a project admin, asks the superadmins for an account for someone who will take
 * part in policy management. Approval makes the person a member and a policy user with the main role asked for.
 */
export const policyUserRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.get(
    P,
    {
      config: { access: access.section('policy_management', SECTION) },
      schema: {
        tags,
        summary: "This project's requests for people with a policy management main role, newest first",
        params: projectParams,
        response: { 200: userRequestListSchema, ...errors },
      },
    },
    async (request) => {
      const a = await policyAccess(db, requireUser(request), request, request.params.projectId, SECTION);
      return {
        requests: await loadUserRequests(
          db,
          and(
            eq(userRequests.projectId, a.projectId),
            sql`${userRequests.mainRoles} ->> 'policy_management' is not null`,
          ),
        ),
      };
    },
  );

  app.post(
    P,
    {
      config: { access: access.section('policy_management', SECTION) },
      schema: {
        tags,
        summary: 'Ask the superadmins for an account for a future policy user; they are notified',
        params: projectParams,
        body: policyUserRequestCreateSchema,
        response: { 201: userRequestSchema, ...errors },
      },
    },
    async (request, reply) => {
      const a = await policyAccess(db, requireUser(request), request, request.params.projectId, SECTION);
      const { main_role, ...person } = request.body;
      const filed = await fileUserRequest(
        db,
        a,
        a.projectId,
        { ...person, project_role: 'simple', main_roles: { policy_management: main_role } },
        app.clock.now(),
        { refuseDuplicates: { memberHint: 'add them under Policy users.' } },
      );
      return reply.status(201).send(filed);
    },
  );
};
