import {
  type Insight,
  type InsightDetail,
  type InsightRevision,
  type InsightStatus,
  type InsightUpdate,
  type insightCreateSchema,
  STALE_INSIGHT_MESSAGE,
} from '@portal/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf } from '../../db/person-name.js';
import { prepared } from '../../db/prepared.js';
import { monInsightRevisions, monInsights, monPages, users } from '../../db/schema/index.js';
import { subjectAudit } from '../../lib/audit.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { insightRules, type PageFacts, pageRules } from '../../policies/monitoring-records.js';
import { authorize, can, serialize } from '../../policies/rules.js';
import { pageFacts } from './page-access.js';

/**
 * Key insights of pages (issue 8; decision record 008): what the people who own a page conclude from its data.
 * Everyone who sees a page reads its published insights; those who may edit the page (and whose role may use the
 * key-insights section) also see, write, publish and delete drafts. Every save writes a revision. An insight of a
 * page the actor cannot see answers 404 like a missing one. Every query is scoped by the actor's project.
 */

type InsightRow = typeof monInsights.$inferSelect;
export type InsightCreateInput = z.output<typeof insightCreateSchema>;

const authors = alias(users, 'insight_author');
const editors = alias(users, 'revision_editor');

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function present(row: InsightRow, authorName: string | null, actor: MonitoringActor, page: PageFacts): Insight {
  return {
    id: row.id,
    page_id: row.pageId,
    title: row.title,
    body: row.body,
    status: row.status as InsightStatus,
    author: row.authorId !== null && authorName !== null ? { id: row.authorId, name: authorName } : null,
    published_at: iso(row.publishedAt),
    updated_at: row.updatedAt.toISOString(),
    version: row.version,
    // Drafts, publishing and deleting: the insight rules, on its page (policies/monitoring-records.ts).
    abilities: serialize(insightRules, actor, page),
  };
}

const liveInsight = (projectId: number, insightId: number) =>
  and(eq(monInsights.projectId, projectId), eq(monInsights.id, insightId), isNull(monInsights.deletedAt));

/** GET /pages/{pageId}/insights: published ones newest first, then (for editors) drafts, newest first. */
export async function listInsights(db: DbOrTx, actor: MonitoringActor, pageId: number): Promise<Insight[]> {
  const page = await pageFacts(db, actor, pageId);
  const drafts = can(pageRules, 'edit_insights', actor, page);
  // Every view of a page asks this: a named statement for each of the two ways of seeing.
  const name = drafts ? 'portal_mon_insights_all' : 'portal_mon_insights_published';
  const rows = await prepared(db, name, (handle, n) =>
    handle
      .select({ insight: monInsights, authorName: nameOf(authors) })
      .from(monInsights)
      .leftJoin(authors, eq(authors.id, monInsights.authorId))
      .where(
        and(
          eq(monInsights.projectId, sql.placeholder('projectId')),
          eq(monInsights.pageId, sql.placeholder('pageId')),
          isNull(monInsights.deletedAt),
          drafts ? undefined : eq(monInsights.status, 'published'),
        ),
      )
      .orderBy(
        sql`case when ${monInsights.status} = 'draft' then 0 else 1 end`,
        desc(sql`coalesce(${monInsights.publishedAt}, ${monInsights.updatedAt})`),
        desc(monInsights.id),
      )
      .prepare(n),
  ).execute({ projectId: actor.projectId, pageId });
  return rows.map((row) => present(row.insight, row.authorName, actor, page));
}

/** An insight the actor may edit (404 when it or its page is hidden, 403 without edit access to the page). */
async function editableInsight(db: DbOrTx, actor: MonitoringActor, insightId: number, lock = false) {
  const query = db.select().from(monInsights).where(liveInsight(actor.projectId, insightId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Insight not found.');
  const page = await pageFacts(db, actor, row.pageId, 'Insight not found.');
  authorize(pageRules, 'edit_insights', actor, page);
  return { row, page };
}

/** GET /insights/{insightId}: the insight with its page, for its editors. */
export async function getInsight(db: DbOrTx, actor: MonitoringActor, insightId: number): Promise<InsightDetail> {
  const { page } = await editableInsight(db, actor, insightId);
  const [entry] = await db
    .select({
      insight: monInsights,
      authorName: nameOf(authors),
      page: { id: monPages.id, number: monPages.number, title: monPages.title },
    })
    .from(monInsights)
    .innerJoin(monPages, and(eq(monPages.id, monInsights.pageId), eq(monPages.projectId, monInsights.projectId)))
    .leftJoin(authors, eq(authors.id, monInsights.authorId))
    .where(liveInsight(actor.projectId, insightId));
  if (!entry) throw notFound('Insight not found.');
  return { ...present(entry.insight, entry.authorName, actor, page), page: entry.page };
}

async function getListed(db: DbOrTx, actor: MonitoringActor, insightId: number): Promise<Insight> {
  const { page: _page, ...insight } = await getInsight(db, actor, insightId);
  return insight;
}

/** Records an insight change (`monitoring.<action>`, subject `mon_insight`) in the transaction of the change. */
const audit = subjectAudit('monitoring', 'mon_insight');

async function writeRevision(tx: DbOrTx, actor: MonitoringActor, row: InsightRow): Promise<void> {
  await tx.insert(monInsightRevisions).values({
    projectId: actor.projectId,
    insightId: row.id,
    version: row.version,
    title: row.title,
    body: row.body,
    status: row.status,
    editedBy: actor.userId,
    editedAt: row.updatedAt,
  });
}

/** POST /pages/{pageId}/insights: a new insight (revision 1). */
export async function createInsight(
  db: Database,
  actor: MonitoringActor,
  pageId: number,
  input: InsightCreateInput,
  now: Date,
): Promise<Insight> {
  const id = await db.transaction(async (tx) => {
    authorize(pageRules, 'edit_insights', actor, await pageFacts(tx, actor, pageId));
    const [row] = await tx
      .insert(monInsights)
      .values({
        projectId: actor.projectId,
        pageId,
        title: input.title,
        body: sanitizeHtml(input.body),
        status: input.status,
        authorId: actor.userId,
        publishedAt: input.status === 'published' ? now : null,
        createdAt: now,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .returning();
    await writeRevision(tx, actor, row!);
    await audit(
      tx,
      actor,
      'insight_created',
      row!.id,
      { page_id: pageId, status: row!.status, title: row!.title },
      now,
    );
    return row!.id;
  });
  return getListed(db, actor, id);
}

/** PUT /insights/{insightId}: the fields given, if the edit started from the current version. */
export async function updateInsight(
  db: Database,
  actor: MonitoringActor,
  insightId: number,
  input: InsightUpdate,
  now: Date,
): Promise<InsightDetail> {
  await db.transaction(async (tx) => {
    const { row } = await editableInsight(tx, actor, insightId, true);
    if (row.version !== input.version) {
      throw new AppError('CONFLICT', STALE_INSIGHT_MESSAGE, { version: [String(row.version)] });
    }
    const next = {
      title: input.title ?? row.title,
      body: input.body === undefined ? row.body : sanitizeHtml(input.body),
      status: input.status ?? row.status,
    };
    const changed = (['title', 'body', 'status'] as const).filter((field) => next[field] !== row[field]);
    if (changed.length === 0) return;
    const publishing = next.status === 'published' && row.status !== 'published';
    const [updated] = await tx
      .update(monInsights)
      .set({
        ...next,
        publishedAt: publishing ? now : next.status === 'published' ? row.publishedAt : null,
        version: row.version + 1,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(liveInsight(actor.projectId, insightId))
      .returning();
    await writeRevision(tx, actor, updated!);
    const action = publishing
      ? 'insight_published'
      : row.status === 'published' && next.status === 'draft'
        ? 'insight_unpublished'
        : 'insight_updated';
    await audit(
      tx,
      actor,
      action,
      insightId,
      {
        page_id: row.pageId,
        fields: changed,
        version: updated!.version,
        ...(changed.includes('status') ? { status: { from: row.status, to: next.status } } : {}),
        // The body is named, never recorded, like a page's contents (docs/monitoring.md).
        changes: changes(row, next, { fields: changed, secret: ['body'] }),
      },
      now,
    );
  });
  return getInsight(db, actor, insightId);
}

/** DELETE /insights/{insightId}: a soft delete (the revisions stay). */
export async function deleteInsight(db: Database, actor: MonitoringActor, insightId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const { row } = await editableInsight(tx, actor, insightId, true);
    await tx
      .update(monInsights)
      .set({ deletedAt: now, updatedBy: actor.userId })
      .where(liveInsight(actor.projectId, insightId));
    await audit(tx, actor, 'insight_deleted', insightId, { page_id: row.pageId, title: row.title }, now);
  });
}

/** GET /insights/{insightId}/revisions: the history, newest first. */
export async function insightRevisions(
  db: DbOrTx,
  actor: MonitoringActor,
  insightId: number,
): Promise<InsightRevision[]> {
  await editableInsight(db, actor, insightId);
  const rows = await db
    .select({
      version: monInsightRevisions.version,
      title: monInsightRevisions.title,
      status: monInsightRevisions.status,
      editedById: monInsightRevisions.editedBy,
      editedByName: nameOf(editors),
      editedAt: monInsightRevisions.editedAt,
    })
    .from(monInsightRevisions)
    .leftJoin(editors, eq(editors.id, monInsightRevisions.editedBy))
    .where(and(eq(monInsightRevisions.projectId, actor.projectId), eq(monInsightRevisions.insightId, insightId)))
    .orderBy(desc(monInsightRevisions.version));
  return rows.map((row) => ({
    version: row.version,
    title: row.title,
    status: row.status as InsightStatus,
    edited_by:
      row.editedById !== null && row.editedByName !== null ? { id: row.editedById, name: row.editedByName } : null,
    edited_at: row.editedAt.toISOString(),
  }));
}
