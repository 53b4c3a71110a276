import { errorBodySchema, INT4_MAX, notificationListSchema, PROJECT_ID_PATTERN } from '@portal/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessions } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import { requireUser } from '../../plugins/session.js';
import { access } from '../../policies/access.js';
import { projectAccess } from '../../policies/projects.js';
import { markReadAcrossProjects, unreadAcrossProjects, visibleNotification } from './member-bell.service.js';
import { NotificationHub } from './notification-hub.js';
import { markRead, unreadFor } from './notifications.service.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const projectId = z.string().regex(PROJECT_ID_PATTERN, 'The project id is 1 to 10 digits.').transform(Number);
const notificationId = z.coerce.number().int().positive().max(INT4_MAX);
const HEARTBEAT_MS = 25_000;

/** SPEC section 7 "Notifications", and a live stream of new ones (server-sent events). */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  // A stream's reader asks for the list as soon as it hears of a notice: the list this instance keeps (decision
  // record 032) is forgotten first, whichever of PostgreSQL's two notices of the change arrives first.
  const hub = new NotificationHub(app.database.pool, app.log, () => app.keptAnswers.clear());
  const streams = new Set<() => void>();
  app.addHook('onReady', () => hub.start());
  // Open streams would hold the shutdown for its whole grace period: end them first.
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
    await hub.stop();
  });

  // The SPEC writes these paths with a trailing slash; both spellings answer.
  for (const url of ['/api/projects/:projectId/notifications', '/api/projects/:projectId/notifications/']) {
    app.get(
      url,
      {
        config: { keptAnswer: true, access: access.project() },
        schema: {
          tags: ['notifications'],
          summary: 'My unread notifications in this project',
          params: z.object({ projectId }),
          response: { 200: notificationListSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const access = await projectAccess(db, user, request.params.projectId);
        return { notifications: await unreadFor(db, user.id, access.project.id) };
      },
    );
  }

  app.patch(
    '/api/projects/:projectId/notifications/:nid/read',
    {
      config: { access: access.project() },
      schema: {
        tags: ['notifications'],
        summary: 'Mark one of my notifications read',
        params: z.object({ projectId, nid: notificationId }),
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const access = await projectAccess(db, user, request.params.projectId);
      if (!(await markRead(db, user.id, request.params.nid, access.project.id, app.clock.now()))) throw notFound();
      return reply.status(204).send();
    },
  );

  for (const url of ['/super/notifications', '/super/notifications/']) {
    app.get(
      url,
      {
        config: { access: access.superadmin },
        schema: {
          tags: ['notifications'],
          summary: 'My unread notifications from every project (superadmin)',
          response: { 200: notificationListSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        if (user.role !== 'superadmin') throw new AppError('FORBIDDEN', 'This is for superadmins only.');
        return { notifications: await unreadFor(db, user.id, null) };
      },
    );
  }

  app.patch(
    '/super/notifications/:nid/read',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['notifications'],
        summary: 'Mark one of my notifications read (superadmin)',
        params: z.object({ nid: notificationId }),
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (user.role !== 'superadmin') throw new AppError('FORBIDDEN', 'This is for superadmins only.');
      if (!(await markRead(db, user.id, request.params.nid, null, app.clock.now()))) throw notFound();
      return reply.status(204).send();
    },
  );

  // The bell where no project is open (the landing page /member/projects): every project the user is a member of
  // today. Any signed-in user; the handler filters by current membership, so there is no project gate to declare.
  for (const url of ['/api/notifications', '/api/notifications/']) {
    app.get(
      url,
      {
        config: { access: access.signedIn },
        schema: {
          tags: ['notifications'],
          summary: 'My unread notifications from every project I am a member of, and those about no project',
          description:
            'Each carries `project_id` and `project_name`. A superadmin gets the same list as `/super/notifications/`.',
          response: { 200: notificationListSchema, ...errors },
        },
      },
      async (request) => ({ notifications: await unreadAcrossProjects(db, requireUser(request)) }),
    );
  }

  app.patch(
    '/api/notifications/:nid/read',
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['notifications'],
        summary: 'Mark one of my notifications read, whichever project it is from',
        description: "404 for another user's notification and for one of a project I am no longer a member of.",
        params: z.object({ nid: notificationId }),
        response: { 204: z.undefined(), ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (!(await markReadAcrossProjects(db, user, request.params.nid, app.clock.now()))) throw notFound();
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/notifications/stream',
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['notifications'],
        summary: 'Server-sent events: `notification` with each new notification for me',
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 5000\n: connected\n\n');
      const sessionHash = request.session?.idHash ?? '';
      // The session still exists (else the stream ends): checked at each heartbeat, and at once when the user's
      // sessions are ended (an account disabled, a directory deprovisioning the person: signalSessionsEnded).
      const checkSession = (keepAlive: boolean) =>
        void db
          .select({ idHash: sessions.idHash })
          .from(sessions)
          .where(eq(sessions.idHash, sessionHash))
          .then((rows) => (!rows.length ? end(true) : keepAlive ? res.write(': keep-alive\n\n') : undefined))
          .catch(() => end());
      const unsubscribe = hub.subscribe(user.id, (event) => {
        if ('sessionsEnded' in event) return checkSession(false);
        // Read with today's memberships: nothing of a project the user has left reaches the tab.
        void visibleNotification(db, user, event.notificationId).then((notification) => {
          if (notification) res.write(`event: notification\ndata: ${JSON.stringify(notification)}\n\n`);
        });
      });
      const heartbeat = setInterval(() => checkSession(true), HEARTBEAT_MS);
      // `sessionGone`: the tab is told (`event: session_ended`), so it signs out at once instead of polling into a 401.
      const end = (sessionGone = false) => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(end);
        if (res.writableEnded) return;
        if (sessionGone) res.write('event: session_ended\ndata: {}\n\n');
        res.end();
      };
      streams.add(end);
      request.raw.on('close', () => end());
    },
  );
};
