import {
  errorBodySchema,
  mainRoleBodySchema,
  mainRoleBulkSchema,
  type PolicySection,
  policyPeopleSchema,
  policyPersonSchema,
  policyUsersAssignSchema,
  policyUsersBodySchema,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { policyAccess } from '../../policies/policy-management.js';
import { type Notice, sendNotices } from '../notifications/notices.js';
import { assignPolicyUsers, listPeople, replacePolicyUsers, setMainRole, setMainRoles } from './people.service.js';

const P = '/api/projects/:projectId/policy-management';
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const tags = ['policy management'];
const userParams = projectParams.extend({
  userId: z
    .string()
    .regex(/^\d{1,10}$/, 'The user id is 1 to 10 digits.')
    .transform(Number),
});

/** Policy users and their main roles (SPEC section 7 "Project-scoped users"; docs/policies.md). */
export const policyPeopleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const actor = (request: FastifyRequest & { params: { projectId: number } }, section: PolicySection) =>
    policyAccess(db, requireUser(request), request, request.params.projectId, section);
  const send = (request: FastifyRequest, projectId: number, notices: readonly Notice[], now: Date) =>
    sendNotices(db, app.mailer, projectId, notices, now, (error) =>
      request.log.error({ err: error }, 'Notice not sent'),
    );

  for (const [path, list, section, summary] of [
    ['eligible-users/unassigned', 'unassigned', 'policy-users', 'Members who do not take part in policy management'],
    ['eligible-users/assigned', 'assigned', 'policy-users', 'The policy users'],
    [
      'pol-man-users/unassigned-main-role',
      'unassigned-main-role',
      'assign-main-role',
      'Policy users without a main role',
    ],
    ['pol-man-users/assigned-main-role', 'assigned-main-role', 'edit-main-role', 'Policy users with a main role'],
  ] as const) {
    app.get(
      `${P}/${path}`,
      {
        config: { access: access.section('policy_management', section) },
        schema: { tags, summary, params: projectParams, response: { 200: policyPeopleSchema, ...errors } },
      },
      async (request) => {
        const a = await actor(request, section);
        return { users: await listPeople(db, a.projectId, list) };
      },
    );
  }

  app.post(
    `${P}/policy-users/assign`,
    {
      config: { access: access.section('policy_management', 'policy-users') },
      schema: {
        tags,
        summary: 'Adds members to policy management',
        params: projectParams,
        body: policyUsersAssignSchema,
        response: { 200: policyPeopleSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'policy-users');
      return { users: await assignPolicyUsers(db, a, request.body.user_ids, app.clock.now()) };
    },
  );

  app.post(
    `${P}/policy-users/update`,
    {
      config: { access: access.section('policy_management', 'policy-users') },
      schema: {
        tags,
        summary: 'Sets the whole list of policy users (those left out lose their policy role)',
        params: projectParams,
        body: policyUsersBodySchema,
        response: { 200: policyPeopleSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'policy-users');
      const notices: Notice[] = [];
      const now = app.clock.now();
      const users = await replacePolicyUsers(db, a, request.body.user_ids, now, notices);
      await send(request, a.projectId, notices, now);
      return { users };
    },
  );

  app.put(
    `${P}/pol-man-users/:userId/main-role`,
    {
      config: { access: access.section('policy_management', 'edit-main-role') },
      schema: {
        tags,
        summary: "Sets or removes a policy user's main role",
        params: userParams,
        body: mainRoleBodySchema,
        response: { 200: policyPersonSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'edit-main-role');
      const notices: Notice[] = [];
      const now = app.clock.now();
      const person = await setMainRole(db, a, request.params.userId, request.body.main_role, now, notices);
      await send(request, a.projectId, notices, now);
      return person;
    },
  );

  app.post(
    `${P}/pol-man-users/main-role/bulk`,
    {
      config: { access: access.section('policy_management', 'assign-main-role') },
      schema: {
        tags,
        summary: 'Sets the main roles of several policy users at once',
        params: projectParams,
        body: mainRoleBulkSchema,
        response: { 200: policyPeopleSchema, ...errors },
      },
    },
    async (request) => {
      const a = await actor(request, 'assign-main-role');
      const notices: Notice[] = [];
      const now = app.clock.now();
      await setMainRoles(db, a, request.body.items, now, notices);
      await send(request, a.projectId, notices, now);
      return { users: await listPeople(db, a.projectId, 'assigned-main-role') };
    },
  );
};
