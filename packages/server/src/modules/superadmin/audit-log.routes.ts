import {
  AUDIT_EXPORT_MAX_ROWS,
  type AuditEvent,
  auditChainSchema,
  auditEventListSchema,
  auditQuerySchema,
  errorBodySchema,
} from '@portal/shared';
import { and, count, desc, eq, gte, like, lte, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { auditEvents, projects, users } from '../../db/schema/index.js';
import { sealAuditChain, verifyAuditChain } from '../../lib/audit-chain.js';
import { csvField } from '../../lib/csv.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { escapeLike } from './search.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

type Filters = Omit<z.output<typeof auditQuerySchema>, 'page' | 'page_size'>;

function whereOf(filters: Filters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filters.actor) conditions.push(eq(auditEvents.actorUserId, filters.actor));
  if (filters.project) conditions.push(eq(auditEvents.projectId, filters.project));
  if (filters.action) conditions.push(like(auditEvents.action, `${escapeLike(filters.action)}%`));
  if (filters.from) conditions.push(gte(auditEvents.createdAt, new Date(filters.from)));
  if (filters.to) conditions.push(lte(auditEvents.createdAt, new Date(filters.to)));
  return and(...conditions);
}

/** Audit events, newest first, with who and which project. */
export async function loadAuditEvents(
  db: DbOrTx,
  where: SQL | undefined,
  limit: number,
  offset = 0,
): Promise<AuditEvent[]> {
  const rows = await db
    .select({
      event: auditEvents,
      actor: { id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username },
      project: { id: projects.id, name: projects.name },
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .leftJoin(projects, eq(projects.id, auditEvents.projectId))
    .where(where)
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit)
    .offset(offset);
  return rows.map(({ event, actor, project }) => ({
    id: event.id,
    created_at: event.createdAt.toISOString(),
    action: event.action,
    actor: actor?.id ? { id: actor.id, name: `${actor.firstName} ${actor.lastName}`.trim() || actor.username } : null,
    project: project?.id ? project : null,
    subject_type: event.subjectType,
    subject_id: event.subjectId,
    data: event.data,
    ip: event.ip,
  }));
}

/** Superadmin: the audit log viewer and its CSV export. */
export const auditLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const superadmin = superadminOf;

  app.get(
    '/super/audit-events',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'The audit log, filtered by actor, project, action (prefix) and time',
        querystring: auditQuerySchema,
        response: { 200: auditEventListSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      const { page, page_size, ...filters } = request.query;
      const where = whereOf(filters);
      const [total] = await db.select({ n: count() }).from(auditEvents).where(where);
      return {
        events: await loadAuditEvents(db, where, page_size, (page - 1) * page_size),
        total: total?.n ?? 0,
        page,
        page_size,
      };
    },
  );

  app.get(
    '/super/audit-chain',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Seals new audit events into the hash chain and verifies the whole chain',
        response: { 200: auditChainSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      await sealAuditChain(db);
      return { ...(await verifyAuditChain(db)), checked_at: app.clock.now().toISOString() };
    },
  );

  app.get(
    '/super/audit-events.csv',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: `The filtered audit log as CSV (at most ${AUDIT_EXPORT_MAX_ROWS} rows, newest first)`,
        querystring: auditQuerySchema.omit({ page: true, page_size: true }),
        // 200 is text/csv.
        response: errors,
      },
    },
    async (request, reply) => {
      const user = superadmin(request);
      const events = await loadAuditEvents(db, whereOf(request.query), AUDIT_EXPORT_MAX_ROWS);
      const header = [
        'id',
        'time',
        'actor_id',
        'actor',
        'action',
        'project_id',
        'project',
        'subject_type',
        'subject_id',
        'ip',
        'data',
      ];
      const lines = events.map((e) =>
        [
          e.id,
          e.created_at,
          e.actor?.id,
          e.actor?.name,
          e.action,
          e.project?.id,
          e.project?.name,
          e.subject_type,
          e.subject_id,
          e.ip,
          e.data,
        ]
          .map(csvField)
          .join(','),
      );
      request.log.info({ user: user.id, rows: events.length }, 'audit log exported');
      const stamp = app.clock.now().toISOString().slice(0, 10);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="audit-log-${stamp}.csv"`)
        .send(`${[header.join(','), ...lines].join('\r\n')}\r\n` as never);
    },
  );
};
