import {
  errorBodySchema,
  termsContentSchema,
  termsEditorSchema,
  termsVersionDetailSchema,
  termsVersionListSchema,
} from '@portal/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { termsVersions, users } from '../../db/schema/index.js';
import { recordAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { access } from '../../policies/access.js';
import { guardSuperadminRoutes, superadminOf } from '../../policies/superadmin.js';
import { findNewestPublished } from '../terms/terms.repository.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const versionParams = z.object({
  versionId: z
    .string()
    .regex(/^\d{1,9}$/, 'The version id is 1 to 9 digits.')
    .transform(Number),
});

const acceptedCount = sql<number>`(select count(*)::int from terms_acceptances ta where ta.terms_version_id = "terms_versions"."id")`;
const columns = {
  version: termsVersions,
  acceptedCount,
  publisher: { id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username },
};

async function loadVersions(db: DbOrTx, where?: ReturnType<typeof eq>) {
  const rows = await db
    .select(columns)
    .from(termsVersions)
    .leftJoin(users, eq(users.id, termsVersions.createdBy))
    .where(where)
    .orderBy(desc(sql`coalesce(${termsVersions.publishedAt}, ${termsVersions.updatedAt})`), desc(termsVersions.id));
  return rows.map(({ version, acceptedCount: accepted, publisher }) => ({
    id: version.id,
    status: version.status as 'draft' | 'published',
    published_at: version.publishedAt?.toISOString() ?? null,
    published_by: publisher?.id
      ? { id: publisher.id, name: `${publisher.firstName} ${publisher.lastName}`.trim() || publisher.username }
      : null,
    created_at: version.createdAt.toISOString(),
    updated_at: version.updatedAt.toISOString(),
    accepted_count: accepted,
    content: version.content,
  }));
}

/** Superadmin: drafts, publishing and the history of the terms and conditions. */
export const superTermsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  guardSuperadminRoutes(app);
  const superadmin = superadminOf;
  const one = async (id: number) => {
    const [version] = await loadVersions(db, eq(termsVersions.id, id));
    if (!version) throw notFound('This version of the terms does not exist.');
    return version;
  };

  app.get(
    '/super/terms',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Every version of the terms, newest first, with acceptance counts',
        response: { 200: termsVersionListSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      const versions = await loadVersions(db);
      const newest = await findNewestPublished(db);
      const [pending] = newest
        ? await db
            .select({ n: sql<number>`count(*)::int` })
            .from(users)
            .where(
              and(
                eq(users.status, 'active'),
                sql`not exists (select 1 from terms_acceptances ta where ta.user_id = "users"."id" and ta.terms_version_id = ${newest.id})`,
              ),
            )
        : [{ n: 0 }];
      return {
        versions: versions.map(({ content: _content, ...version }) => version),
        pending_acceptance: pending?.n ?? 0,
      };
    },
  );

  app.get(
    '/super/terms/editor',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'The draft, and the newest published version',
        response: { 200: termsEditorSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      const [draft] = await loadVersions(db, eq(termsVersions.status, 'draft'));
      const newest = await findNewestPublished(db);
      return { draft: draft ?? null, published: newest ? await one(newest.id) : null };
    },
  );

  app.get(
    '/super/terms/:versionId',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'One version of the terms with its content',
        params: versionParams,
        response: { 200: termsVersionDetailSchema, ...errors },
      },
    },
    async (request) => {
      superadmin(request);
      return one(request.params.versionId);
    },
  );

  app.put(
    '/super/terms/draft',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Save the draft of the next version (sanitised); there is one draft at a time',
        body: termsContentSchema,
        response: { 200: termsVersionDetailSchema, ...errors },
      },
    },
    async (request) => {
      const user = superadmin(request);
      const content = sanitizeHtml(request.body.content);
      const id = await db.transaction(async (tx) => {
        const [draft] = await tx.select().from(termsVersions).where(eq(termsVersions.status, 'draft')).for('update');
        const now = app.clock.now();
        const [saved] = draft
          ? await tx
              .update(termsVersions)
              .set({ content, createdBy: user.id, updatedAt: now })
              .where(eq(termsVersions.id, draft.id))
              .returning({ id: termsVersions.id })
          : await tx
              .insert(termsVersions)
              .values({ content, status: 'draft', createdBy: user.id, createdAt: now, updatedAt: now })
              .returning({ id: termsVersions.id });
        await recordAudit(tx, {
          action: 'terms.save_draft',
          actorUserId: user.id,
          subjectType: 'terms_version',
          subjectId: saved!.id,
          // The HTML before (empty for a new draft) and after, shortened to 200 characters (lib/audit-diff.ts).
          data: { new_draft: !draft, changes: changes({ content: draft?.content ?? '' }, { content }) },
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        return saved!.id;
      });
      return one(id);
    },
  );

  app.post(
    '/super/terms/publish',
    {
      config: { access: access.superadmin },
      schema: {
        tags: ['superadmin'],
        summary: 'Publish a new version: every user must accept it at their next sign-in',
        body: termsContentSchema,
        response: { 201: termsVersionDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = superadmin(request);
      const content = sanitizeHtml(request.body.content);
      if (!content.replace(/<[^>]*>/g, '').trim()) {
        throw new AppError('VALIDATION_FAILED', 'Write the terms before saving.', {
          content: ['Write the terms before saving.'],
        });
      }
      const id = await db.transaction(async (tx) => {
        const now = app.clock.now();
        // The draft becomes the published version; without one, a new version is made.
        const [draft] = await tx.select().from(termsVersions).where(eq(termsVersions.status, 'draft')).for('update');
        const values = { content, status: 'published', publishedAt: now, createdBy: user.id, updatedAt: now };
        const [published] = draft
          ? await tx.update(termsVersions).set(values).where(eq(termsVersions.id, draft.id)).returning()
          : await tx
              .insert(termsVersions)
              .values({ ...values, createdAt: now })
              .returning();
        await recordAudit(tx, {
          action: 'terms.publish',
          actorUserId: user.id,
          subjectType: 'terms_version',
          subjectId: published!.id,
          ip: request.ip,
          requestId: request.id,
          at: now,
        });
        return published!.id;
      });
      return reply.status(201).send(await one(id));
    },
  );
};
