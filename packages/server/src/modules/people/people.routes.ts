import {
  appPeopleSchema,
  appPersonSchema,
  PEOPLE_CONTRACTS,
  type PeopleApp,
  type PermissionSection,
  userRequestListSchema,
  userRequestSchema,
} from '@portal/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DbOrTx } from '../../db/client.js';
import { userRequests } from '../../db/schema/index.js';
import { errorAnswers } from '../../lib/error-answers.js';
import { pathId, projectParams } from '../../lib/path-id.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { appAccess } from '../../policies/app-access.js';
import { type Notice, withNotices } from '../notifications/notices.js';
import { fileUserRequest, loadUserRequests } from '../superadmin/user-requests.service.js';
import type { PeopleAppDescriptor } from './apps.js';
import { assignUsers, listPeople, replaceUsers, setMainRole, setMainRoles } from './people.service.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const userParams = projectParams.extend({ userId: pathId('user') });
type Call = { path: string; section: PermissionSection<PeopleApp> };

/**
 * The people calls of one app (SPEC section 7 "Project-scoped users"; issue 26), at the paths and behind the
 * sections its descriptor names: the people lists, adding members, the whole list of users, main roles one by one
 * and in bulk, and the new-user requests to the superadmins. Registered once per app (app.ts).
 */
export function peopleRoutes(d: PeopleAppDescriptor): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = app.database;
    const contracts = PEOPLE_CONTRACTS[d.app];
    const people = appPeopleSchema(d.app);
    const person = appPersonSchema(d.app);
    const { names, tags } = d;
    const url = (call: Call) => `${d.prefix}/${call.path}`;
    const config = (call: Call) => ({ access: access.section(d.app, call.section) });
    const actor = (request: FastifyRequest & { params: { projectId: number } }, call: Call) =>
      appAccess(db, d.app, requireUser(request), request, request.params.projectId, call.section);
    /** Runs a change that may notify people, with its notices queued in its transaction. */
    const notifying = <T>(projectId: number, change: (tx: DbOrTx, notices: Notice[], now: Date) => Promise<T>) => {
      const now = app.clock.now();
      return withNotices(db, app.mailer, projectId, now, (tx, notices) => change(tx, notices, now));
    };

    for (const call of d.lists) {
      app.get(
        url(call),
        {
          config: config(call),
          schema: {
            tags,
            summary: call.summary,
            params: projectParams,
            response: { 200: people, ...errors },
          },
        },
        async (request) => {
          const a = await actor(request, call);
          return { users: await listPeople(db, d, a.projectId, call.list) };
        },
      );
    }

    app.post(
      url(d.assign),
      {
        config: config(d.assign),
        schema: {
          tags,
          summary: `Adds members to ${names.app}`,
          params: projectParams,
          body: contracts.usersAssign,
          response: { 200: people, ...errors },
        },
      },
      async (request) => {
        const a = await actor(request, d.assign);
        return { users: await assignUsers(db, d, a, request.body.user_ids, app.clock.now()) };
      },
    );

    app.post(
      url(d.update),
      {
        config: config(d.update),
        schema: {
          tags,
          summary: `Sets the whole list of ${names.users} (those left out lose ${d.update.loses})`,
          params: projectParams,
          body: contracts.usersBody,
          response: { 200: people, ...errors },
        },
      },
      async (request) => {
        const a = await actor(request, d.update);
        const ids = request.body.user_ids;
        return { users: await notifying(a.projectId, (tx, n, now) => replaceUsers(tx, d, a, ids, now, n)) };
      },
    );

    app.put(
      url(d.mainRole),
      {
        config: config(d.mainRole),
        schema: {
          tags,
          summary: `Sets or removes a ${names.user}'s main role`,
          params: userParams,
          body: contracts.mainRoleBody,
          response: { 200: person, ...errors },
        },
      },
      async (request) => {
        const a = await actor(request, d.mainRole);
        const { userId } = request.params;
        const role = request.body.main_role;
        return notifying(a.projectId, (tx, n, now) => setMainRole(tx, d, a, userId, role, now, n));
      },
    );

    app.post(
      url(d.bulk),
      {
        config: config(d.bulk),
        schema: {
          tags,
          summary: `Sets the main roles of several ${names.users} at once`,
          params: projectParams,
          body: contracts.mainRoleBulk,
          response: { 200: people, ...errors },
        },
      },
      async (request) => {
        const a = await actor(request, d.bulk);
        const { items } = request.body;
        await notifying(a.projectId, (tx, n, now) => setMainRoles(tx, d, a, items, now, n));
        return { users: await listPeople(db, d, a.projectId, d.bulk.answers) };
      },
    );

    app.get(
      url(d.userRequests),
      {
        config: config(d.userRequests),
        schema: {
          tags,
          summary: `This project's requests for people with a ${names.app} main role, newest first`,
          params: projectParams,
          response: { 200: userRequestListSchema, ...errors },
        },
      },
      async (request) => {
        const a = await actor(request, d.userRequests);
        const forApp = sql`${userRequests.mainRoles} ->> ${d.app}::text is not null`;
        return { requests: await loadUserRequests(db, and(eq(userRequests.projectId, a.projectId), forApp)) };
      },
    );

    app.post(
      url(d.userRequests),
      {
        config: config(d.userRequests),
        schema: {
          tags,
          summary: `Ask the superadmins for an account for a future ${names.user}; they are notified`,
          params: projectParams,
          body: contracts.userRequestCreate,
          response: { 201: userRequestSchema, ...errors },
        },
      },
      async (request, reply) => {
        const a = await actor(request, d.userRequests);
        const { main_role, ...person } = request.body;
        const filed = await fileUserRequest(
          db,
          a,
          a.projectId,
          { ...person, project_role: 'simple', main_roles: { [d.app]: main_role } },
          app.clock.now(),
          { refuseDuplicates: { memberHint: `add them under ${names.title}.` } },
        );
        return reply.status(201).send(filed);
      },
    );
  };
}
