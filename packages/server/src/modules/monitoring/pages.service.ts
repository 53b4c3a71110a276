import {
  atLeast,
  compareNumbers,
  DEFAULT_PAGE_LEVELS,
  type MonitoringIntroduction,
  type PageAbilities,
  type PageAccessLevel,
  type PageDetail,
  type PageNode,
  type PageStatus,
  type PageTree,
  type PageUpdate,
  type pageCreateSchema,
} from '@portal/shared';
import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { nameOf, personName } from '../../db/person-name.js';
import { prepared } from '../../db/prepared.js';
import { monPageLevels, monPages, monSettings, monUsers, projectMemberships, users } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize.js';
import { administersMonitoring, type MonitoringActor, requireActor } from '../../policies/monitoring.js';
import { PAGE_NODE_ABILITIES, type PageFacts, pageNodeRules } from '../../policies/monitoring-records.js';
import { authorize, serialize } from '../../policies/rules.js';
import { effectivePageAccess, pageFacts } from './page-access.js';
import { monitoringAudit } from './people.service.js';
import { numberingModeOf, renumberPages } from './tree.service.js';
import { visiblePages } from './visibility.js';

/**
 * The page tree core (issue 8; decision record 008): listing what a person may see, reading, creating, changing and
 * deleting pages, and the programme introduction. Every query is scoped by the actor's project; a page the actor
 * may not see answers 404 like a missing one and its title never leaves this file.
 */

type PageRow = typeof monPages.$inferSelect;
type LevelRow = typeof monPageLevels.$inferSelect;

export const STALE_PAGE_MESSAGE = 'This page was changed by someone else. Reload it to see their changes.';
export const HAS_CHILDREN_MESSAGE = 'This page has sub-pages. Delete them first, or delete the whole branch.';

/**
 * The project's page levels by depth; a project without any gets the defaults (Domain, Programme, Indicator) the
 * first time it is asked, in the caller's transaction.
 */
export async function ensureLevels(tx: DbOrTx, projectId: number): Promise<LevelRow[]> {
  const levels = await prepared(tx, 'portal_mon_page_levels', (handle, name) =>
    handle
      .select()
      .from(monPageLevels)
      .where(eq(monPageLevels.projectId, sql.placeholder('projectId')))
      .orderBy(asc(monPageLevels.depth))
      .prepare(name),
  ).execute({ projectId });
  if (levels.length > 0) return levels;
  await tx
    .insert(monPageLevels)
    .values(
      DEFAULT_PAGE_LEVELS.map((level) => ({
        projectId,
        depth: level.depth,
        name: level.name,
        icon: level.icon,
        mayHoldMeasures: level.may_hold_measures,
      })),
    )
    .onConflictDoNothing();
  return tx
    .select()
    .from(monPageLevels)
    .where(eq(monPageLevels.projectId, projectId))
    .orderBy(asc(monPageLevels.depth));
}

/** The position after the last live page under `parentId` (null: the top level): where a new page goes. */
export async function nextPositionUnder(tx: DbOrTx, projectId: number, parentId: number | null): Promise<number> {
  const [last] = await tx
    .select({ position: sql<number>`coalesce(max(${monPages.position}), -1)::int` })
    .from(monPages)
    .where(
      and(
        eq(monPages.projectId, projectId),
        isNull(monPages.deletedAt),
        parentId === null ? isNull(monPages.parentId) : eq(monPages.parentId, parentId),
      ),
    );
  return (last?.position ?? -1) + 1;
}

/**
 * Serialises structural changes of one project's tree (creating, deleting, moving, renumbering) until the
 * transaction ends, so positions and manual numbers are checked against a tree that cannot change underneath.
 */
export async function lockTree(tx: DbOrTx, projectId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(8008, ${projectId})`);
}

/** The abilities a page carries: its level, and what the page node rules (policies/monitoring-records.ts) allow. */
function abilitiesOf(actor: MonitoringActor, page: PageFacts): PageAbilities {
  return { level: page.level, ...serialize(pageNodeRules, actor, page, PAGE_NODE_ABILITIES) };
}

const updaters = alias(users, 'updater');

/** Every live page of the project with its owner's name and the name of who last changed it. */
function livePages(db: DbOrTx, projectId: number) {
  return prepared(db, 'portal_mon_live_pages', (handle, name) =>
    handle
      .select({ page: monPages, ownerName: personName, updaterName: nameOf(updaters) })
      .from(monPages)
      .leftJoin(users, eq(users.id, monPages.ownerId))
      .leftJoin(updaters, eq(updaters.id, monPages.updatedBy))
      .where(and(eq(monPages.projectId, sql.placeholder('projectId')), isNull(monPages.deletedAt)))
      .prepare(name),
  ).execute({ projectId });
}

interface VisiblePage {
  page: PageRow;
  ownerName: string | null;
  updaterName: string | null;
  level: PageAccessLevel;
}

interface VisibleTree {
  /** Visible pages in tree order (parents before children, siblings by position). */
  ordered: VisiblePage[];
  byId: Map<number, VisiblePage>;
  childCount: Map<number, number>;
  levels: LevelRow[];
}

async function visibleTree(db: DbOrTx, actor: MonitoringActor): Promise<VisibleTree> {
  const levels = await ensureLevels(db, actor.projectId);
  const rows = await livePages(db, actor.projectId);
  const access = await effectivePageAccess(db, actor);
  const children = new Map<number | null, typeof rows>();
  for (const row of rows) {
    if ((access.get(row.page.id) ?? 'none') === 'none') continue;
    const list = children.get(row.page.parentId) ?? [];
    list.push(row);
    children.set(row.page.parentId, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.page.position - b.page.position || a.page.id - b.page.id);
  const ordered: VisibleTree['ordered'] = [];
  const walk = (parentId: number | null) => {
    for (const row of children.get(parentId) ?? []) {
      ordered.push({ ...row, level: access.get(row.page.id)! });
      walk(row.page.id);
    }
  };
  walk(null);
  const childCount = new Map<number, number>();
  for (const [parentId, list] of children) if (parentId !== null) childCount.set(parentId, list.length);
  return { ordered, byId: new Map(ordered.map((entry) => [entry.page.id, entry])), childCount, levels };
}

function toNode(actor: MonitoringActor, tree: VisibleTree, entry: VisiblePage): PageNode {
  const { page } = entry;
  const level = tree.levels.find((l) => l.depth === page.depth);
  return {
    id: page.id,
    parent_id: page.parentId,
    position: page.position,
    depth: page.depth,
    number: page.number,
    title: page.title,
    status: page.status as PageStatus,
    restricted: page.restricted,
    owner: page.ownerId !== null && entry.ownerName !== null ? { id: page.ownerId, name: entry.ownerName } : null,
    level: level ? { id: level.id, name: level.name, icon: level.icon } : null,
    version: page.version,
    child_count: tree.childCount.get(page.id) ?? 0,
    abilities: abilitiesOf(actor, { projectId: page.projectId, level: entry.level }),
  };
}

/** GET /pages: the visible tree, flat, in tree order. */
export async function listPages(db: DbOrTx, actor: MonitoringActor): Promise<PageTree> {
  const tree = await visibleTree(db, actor);
  return {
    pages: tree.ordered.map((entry) => toNode(actor, tree, entry)),
    numbering_mode: await numberingModeOf(db, actor.projectId),
    max_depth: tree.levels.length,
  };
}

/** GET /pages/{id}: 404 when the page is hidden, missing, deleted or in another project. */
export async function getPage(db: DbOrTx, actor: MonitoringActor, pageId: number): Promise<PageDetail> {
  const tree = await visibleTree(db, actor);
  const entry = tree.byId.get(pageId);
  if (!entry) throw notFound('Page not found.');
  const ancestors: PageDetail['ancestors'] = [];
  for (let parentId = entry.page.parentId; parentId !== null; ) {
    const parent = tree.byId.get(parentId);
    if (!parent) break;
    ancestors.unshift({ id: parent.page.id, number: parent.page.number, title: parent.page.title });
    parentId = parent.page.parentId;
  }
  const children = tree.ordered
    .filter((child) => child.page.parentId === pageId)
    .map((child) => ({
      id: child.page.id,
      number: child.page.number,
      title: child.page.title,
      status: child.page.status as PageStatus,
    }));
  const updatedBy = entry.page.updatedBy;
  return {
    ...toNode(actor, tree, entry),
    introduction: entry.page.introduction,
    benchmarks: entry.page.benchmarks,
    parameters_and_metrics: entry.page.parametersAndMetrics,
    ancestors,
    children,
    created_at: entry.page.createdAt.toISOString(),
    updated_at: entry.page.updatedAt.toISOString(),
    updated_by: updatedBy === null || entry.updaterName === null ? null : { id: updatedBy, name: entry.updaterName },
  };
}

/**
 * GET /pages/used-numbers: the numbers of the live pages the actor may see (numbers only, no titles), sorted
 * 1 < 1.9 < 1.10 < 2. A number a hidden page holds is refused when saved, without naming the page.
 */
export async function usedNumbers(db: DbOrTx, actor: MonitoringActor): Promise<string[]> {
  const rows = await db
    .select({ number: monPages.number })
    .from(monPages)
    .where(
      and(
        eq(monPages.projectId, actor.projectId),
        isNull(monPages.deletedAt),
        isNotNull(monPages.number),
        await visiblePages(db, actor),
      ),
    );
  return rows.map((row) => row.number!).sort(compareNumbers);
}

/** The monitoring users of the project (mon_users who are still members), who may own pages. */
export async function ownerCandidates(db: DbOrTx, projectId: number): Promise<{ id: number; name: string }[]> {
  const rows = await db
    .select({ id: users.id, name: personName })
    .from(monUsers)
    .innerJoin(users, eq(users.id, monUsers.userId))
    .innerJoin(
      projectMemberships,
      and(eq(projectMemberships.projectId, monUsers.projectId), eq(projectMemberships.userId, monUsers.userId)),
    )
    .where(eq(monUsers.projectId, projectId));
  return rows.sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id - b.id);
}

async function checkOwner(db: DbOrTx, projectId: number, ownerId: number | null | undefined): Promise<void> {
  if (ownerId === null || ownerId === undefined) return;
  if (!(await ownerCandidates(db, projectId)).some((person) => person.id === ownerId)) {
    throw fieldError('owner_id', 'Choose a monitoring user of this project.');
  }
}

const fieldError = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { [field]: [message] });

/** A manual number must be unique among the project's live pages (visible or not: only the number is said). */
async function checkNumberFree(db: DbOrTx, projectId: number, number: string, exceptId?: number): Promise<void> {
  const [taken] = await db
    .select({ id: monPages.id })
    .from(monPages)
    .where(
      and(
        eq(monPages.projectId, projectId),
        isNull(monPages.deletedAt),
        eq(monPages.number, number),
        exceptId === undefined ? undefined : ne(monPages.id, exceptId),
      ),
    );
  if (taken) throw fieldError('number', `Number ${number} is already used.`);
}

/** POST /pages: a new page, last among its siblings. */
export async function createPage(
  db: Database,
  actor: MonitoringActor,
  input: z.output<typeof pageCreateSchema>,
  now: Date,
): Promise<PageDetail> {
  const id = await db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const levels = await ensureLevels(tx, actor.projectId);
    let depth = 1;
    if (input.parent_id === null) {
      if (!administersMonitoring(actor)) {
        throw fieldError('parent_id', 'Choose a page you may edit.');
      }
    } else {
      const access = await effectivePageAccess(tx, actor);
      if (!atLeast(access.get(input.parent_id) ?? 'none', 'edit')) {
        throw fieldError('parent_id', 'Choose a page you may edit.');
      }
      const [parent] = await tx
        .select({ depth: monPages.depth })
        .from(monPages)
        .where(
          and(eq(monPages.projectId, actor.projectId), eq(monPages.id, input.parent_id), isNull(monPages.deletedAt)),
        );
      if (!parent) {
        throw fieldError('parent_id', 'Choose a page you may edit.');
      }
      depth = parent.depth + 1;
    }
    if (depth > levels.length) {
      const deepest = levels[levels.length - 1]?.name ?? 'level';
      throw fieldError(
        'parent_id',
        `${deepest} is the deepest level: a ${deepest.toLowerCase()} cannot have sub-pages. Choose another parent.`,
      );
    }
    // The page is not created yet: nobody has a level on it, and the rule reads the actor alone.
    if (input.restricted)
      authorize(pageNodeRules, 'restrict_new', actor, { projectId: actor.projectId, level: 'none' });
    await checkOwner(tx, actor.projectId, input.owner_id);
    const mode = await numberingModeOf(tx, actor.projectId);
    let number: string | null = null;
    if (mode === 'manual') {
      if (!input.number) throw fieldError('number', 'Enter a number: this project numbers its pages by hand.');
      await checkNumberFree(tx, actor.projectId, input.number);
      number = input.number;
    }
    const position = await nextPositionUnder(tx, actor.projectId, input.parent_id);
    const [page] = await tx
      .insert(monPages)
      .values({
        projectId: actor.projectId,
        parentId: input.parent_id,
        position,
        depth,
        number,
        title: input.title,
        status: input.status,
        ownerId: input.owner_id,
        introduction: sanitizeHtml(input.introduction),
        benchmarks: sanitizeHtml(input.benchmarks),
        parametersAndMetrics: sanitizeHtml(input.parameters_and_metrics),
        restricted: input.restricted,
        createdBy: actor.userId,
        updatedBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: monPages.id });
    const renumbered = await renumberPages(tx, actor.projectId);
    const created = renumbered.find((change) => change.id === page!.id);
    await monitoringAudit(
      tx,
      actor,
      'page_created',
      { type: 'mon_page', id: page!.id },
      {
        parent_id: input.parent_id,
        number: created ? created.to : number,
        status: input.status,
        restricted: input.restricted,
        renumbered: renumbered.filter((change) => change.id !== page!.id),
      },
      now,
    );
    return page!.id;
  });
  return getPage(db, actor, id);
}

const CONTENT_FIELDS = {
  title: 'title',
  status: 'status',
  owner_id: 'ownerId',
  introduction: 'introduction',
  benchmarks: 'benchmarks',
  parameters_and_metrics: 'parametersAndMetrics',
  restricted: 'restricted',
  number: 'number',
} as const satisfies Record<Exclude<keyof PageUpdate, 'version'>, keyof PageRow>;
const columnOf = (field: string) => CONTENT_FIELDS[field as keyof typeof CONTENT_FIELDS];
/** A page's own words: its audit names them when they change, never records them. */
const PAGE_CONTENTS = ['introduction', 'benchmarks', 'parameters_and_metrics'];

/** PUT /pages/{id}: the fields given, if the edit started from the current version. */
export async function updatePage(
  db: Database,
  actor: MonitoringActor,
  pageId: number,
  input: PageUpdate,
  now: Date,
): Promise<PageDetail> {
  await db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const facts = await pageFacts(tx, actor, pageId);
    authorize(pageNodeRules, 'edit', actor, facts);
    const [page] = await tx
      .select()
      .from(monPages)
      .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, pageId), isNull(monPages.deletedAt)))
      .for('update');
    if (!page) throw notFound('Page not found.');
    if (page.version !== input.version) {
      throw new AppError('CONFLICT', STALE_PAGE_MESSAGE, { version: [String(page.version)] });
    }
    const next: Partial<PageRow> = {};
    const changed: string[] = [];
    const set = <K extends keyof typeof CONTENT_FIELDS>(field: K, value: PageRow[(typeof CONTENT_FIELDS)[K]]) => {
      const column = CONTENT_FIELDS[field];
      if (page[column] === value) return;
      (next as Record<string, unknown>)[column] = value;
      changed.push(field);
    };
    if (input.title !== undefined) set('title', input.title);
    if (input.status !== undefined) set('status', input.status);
    if (input.introduction !== undefined) set('introduction', sanitizeHtml(input.introduction));
    if (input.benchmarks !== undefined) set('benchmarks', sanitizeHtml(input.benchmarks));
    if (input.parameters_and_metrics !== undefined) {
      set('parameters_and_metrics', sanitizeHtml(input.parameters_and_metrics));
    }
    if (input.owner_id !== undefined && input.owner_id !== page.ownerId) {
      await checkOwner(tx, actor.projectId, input.owner_id);
      set('owner_id', input.owner_id);
    }
    if (input.restricted !== undefined && input.restricted !== page.restricted) {
      authorize(pageNodeRules, 'restrict', actor, facts);
      set('restricted', input.restricted);
    }
    if (input.number !== undefined && input.number !== page.number) {
      if ((await numberingModeOf(tx, actor.projectId)) === 'auto') {
        throw fieldError('number', 'Numbers follow the tree in automatic numbering.');
      }
      if (!input.number) throw fieldError('number', 'Enter a number: this project numbers its pages by hand.');
      await checkNumberFree(tx, actor.projectId, input.number, pageId);
      set('number', input.number);
    }
    if (changed.length === 0) return;
    await tx
      .update(monPages)
      .set({ ...next, version: page.version + 1, updatedAt: now, updatedBy: actor.userId })
      .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, pageId)));
    await monitoringAudit(
      tx,
      actor,
      'page_updated',
      { type: 'mon_page', id: pageId },
      {
        fields: changed,
        version: page.version + 1,
        ...(changed.includes('number') ? { number: { from: page.number, to: input.number } } : {}),
        ...(changed.includes('status') ? { status: { from: page.status, to: input.status } } : {}),
        // The page's HTML contents are named, never recorded (docs/monitoring.md); the other fields before and after.
        changes: changes(
          Object.fromEntries(changed.map((field) => [field, page[columnOf(field)]])),
          Object.fromEntries(changed.map((field) => [field, next[columnOf(field)]])),
          { secret: PAGE_CONTENTS },
        ),
      },
      now,
    );
  });
  return getPage(db, actor, pageId);
}

/** DELETE /pages/{id}: a soft delete; a page with live sub-pages only with `cascade` (the whole branch). */
export async function deletePage(
  db: Database,
  actor: MonitoringActor,
  pageId: number,
  cascade: boolean,
  now: Date,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const facts = await pageFacts(tx, actor, pageId);
    authorize(pageNodeRules, 'delete', actor, facts);
    const rows = await tx
      .select({ id: monPages.id, parentId: monPages.parentId, number: monPages.number })
      .from(monPages)
      .where(and(eq(monPages.projectId, actor.projectId), isNull(monPages.deletedAt)));
    const branch = [pageId];
    for (let i = 0; i < branch.length; i++) {
      for (const row of rows) if (row.parentId === branch[i]) branch.push(row.id);
    }
    if (branch.length > 1) {
      if (!cascade) throw new AppError('CONFLICT', HAS_CHILDREN_MESSAGE);
      const access = await effectivePageAccess(tx, actor);
      const below = branch.slice(1).map((id) => access.get(id) ?? 'none');
      authorize(pageNodeRules, 'delete_branch', actor, { ...facts, below });
    }
    await tx
      .update(monPages)
      .set({ deletedAt: now, deletedBy: actor.userId })
      .where(and(eq(monPages.projectId, actor.projectId), inArray(monPages.id, branch)));
    const renumbered = await renumberPages(tx, actor.projectId);
    await monitoringAudit(
      tx,
      actor,
      'page_deleted',
      { type: 'mon_page', id: pageId },
      {
        cascade: branch.length > 1,
        deleted: branch,
        numbers: branch.map((id) => rows.find((row) => row.id === id)?.number ?? null),
        renumbered,
      },
      now,
    );
    return branch;
  });
}

/** GET /introduction. */
export async function getIntroduction(db: DbOrTx, actor: MonitoringActor): Promise<MonitoringIntroduction> {
  const [settings] = await db.select().from(monSettings).where(eq(monSettings.projectId, actor.projectId));
  const tree = await visibleTree(db, actor);
  return {
    introduction: settings?.introduction ?? '',
    can_edit: administersMonitoring(actor),
    top_pages: tree.ordered
      .filter((entry) => entry.page.parentId === null)
      .map((entry) => ({
        id: entry.page.id,
        number: entry.page.number,
        title: entry.page.title,
        status: entry.page.status as PageStatus,
        child_count: tree.childCount.get(entry.page.id) ?? 0,
      })),
    updated_at: settings ? settings.updatedAt.toISOString() : null,
  };
}

/** PUT /introduction: monitoring administrators only. */
export async function updateIntroduction(
  db: Database,
  actor: MonitoringActor,
  introduction: string,
  now: Date,
): Promise<MonitoringIntroduction> {
  requireActor(actor, administersMonitoring, 'Only monitoring administrators can change the introduction.');
  const html = sanitizeHtml(introduction);
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ introduction: monSettings.introduction })
      .from(monSettings)
      .where(eq(monSettings.projectId, actor.projectId))
      .for('update');
    await tx
      .insert(monSettings)
      .values({ projectId: actor.projectId, introduction: html, updatedAt: now, updatedBy: actor.userId })
      .onConflictDoUpdate({
        target: monSettings.projectId,
        set: { introduction: html, updatedAt: now, updatedBy: actor.userId },
      });
    // The HTML before and after, each shortened to its first 200 characters (lib/audit-diff.ts).
    await monitoringAudit(
      tx,
      actor,
      'introduction_updated',
      { type: 'mon_settings', id: actor.projectId },
      { changes: changes({ introduction: before?.introduction ?? '' }, { introduction: html }) },
      now,
    );
  });
  return getIntroduction(db, actor);
}

/** The project of a live page, for links without a project (/app/monitoring/pages/page/{id}); null when none. */
export async function projectOfPage(db: DbOrTx, pageId: number): Promise<number | null> {
  const [row] = await db
    .select({ projectId: monPages.projectId })
    .from(monPages)
    .where(and(eq(monPages.id, pageId), isNull(monPages.deletedAt)));
  return row?.projectId ?? null;
}
