import { errorBodySchema, sanitizeRequestSchema, sanitizeResponseSchema, superDashboardSchema } from '@portal/shared';
import { and, count, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailLog, projects, userRequests, users } from '../../db/schema/index.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { loadAuditEvents } from './audit-log.routes.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** Superadmin: the console's dashboard, and the server sanitiser for /dev/editor. */
export const superDashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const superadmin = superadminOf;
  const countOf = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;

  app.get(
    '/super/dashboard',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary:
          'Counts of projects, users, pending requests, failed emails, accounts without two-factor; latest audit events',
        response: { 200: superDashboardSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      const [allProjects, activeProjects, allUsers, pending, failed, withoutTwoFactor, latest] = await Promise.all([
        countOf(db.select({ n: count() }).from(projects)),
        countOf(db.select({ n: count() }).from(projects).where(eq(projects.isActive, true))),
        countOf(db.select({ n: count() }).from(users)),
        countOf(db.select({ n: count() }).from(userRequests).where(eq(userRequests.status, 'pending'))),
        countOf(db.select({ n: count() }).from(emailLog).where(eq(emailLog.status, 'failed'))),
        countOf(
          db
            .select({ n: count() })
            .from(users)
            .where(and(ne(users.status, 'disabled'), isNull(users.twoFactorConfirmedAt))),
        ),
        loadAuditEvents(db, undefined, 10),
      ]);
      return {
        counts: {
          projects: allProjects,
          active_projects: activeProjects,
          users: allUsers,
          pending_user_requests: pending,
          failed_emails: failed,
          users_without_two_factor: withoutTwoFactor,
        },
        latest_audit_events: latest,
      };
    },
  );

  app.post(
    '/super/sanitize',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: "The server's rich-text sanitiser applied to some HTML (for /dev/editor); changes nothing",
        body: sanitizeRequestSchema,
        response: { 200: sanitizeResponseSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      return { html: sanitizeHtml(request.body.html) };
    },
  );
};
