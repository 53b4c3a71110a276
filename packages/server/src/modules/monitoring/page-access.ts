import { atLeast, type PageAccessLevel, type PageGrantLevel, strongerLevel } from '@portal/shared';
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { monPagePermissions, monPages, monRoleMembers } from '../../db/schema/index.js';
import { notFound } from '../../lib/errors.js';
import { administersMonitoring, type MonitoringActor } from '../../policies/monitoring.js';
import { type PageFacts, pageRules } from '../../policies/monitoring-records.js';
import { authorize } from '../../policies/rules.js';

/**
 * What the actor may do on every live page of the project (decision record 008), read from the grant matrix below:
 * - monitoring administrators and superadmins: manage everywhere;
 * - grants (to one of the actor's monitoring roles, or to the actor) apply to the page and its descendants; a
 *   restricted page starts afresh from its own grants;
 * - a page with no restricted page on its path is open: every monitoring user views it;
 * - the owner of a page edits it;
 * - a hidden page hides its whole branch, so a title below it never reaches anyone who cannot see it.
 * These are the grants alone (the permission matrix shows them); calls use effectivePageAccess, which also hides
 * drafts from those who only read.
 */
export async function loadPageAccess(db: DbOrTx, actor: MonitoringActor): Promise<Map<number, PageAccessLevel>> {
  return levelsOf(actor, await accessFacts(db, actor));
}

type AccessPage = PageRow & { status: string };

/** A project's live pages (with their status, for effectivePageAccess) and its grants. */
interface ProjectFacts {
  pages: AccessPage[];
  grants: GrantRow[];
}

/**
 * What the levels are computed from: the project's pages and grants, and the actor's monitoring roles. On a read of
 * the project's address the session read the roles and the project's `mon_access_version`, which PostgreSQL moves on
 * with every change to its pages or grants (migration 0029): the pages and grants are then those this instance keeps
 * for that version, read once when it changes (decision record 028). Anything else reads all three in one statement.
 */
async function accessFacts(db: DbOrTx, actor: MonitoringActor) {
  const administers = administersMonitoring(actor);
  const context = actor.context?.projectId === actor.projectId ? actor.context : undefined;
  const version = context?.project?.monAccessVersion;
  if (!context || version === undefined) {
    const { pages, grants, roleIds } = await readFacts(db, actor.projectId, actor.userId);
    return { administers, project: { pages, grants }, roleIds };
  }
  const projects = kept.get(db) ?? new Map<number, { version: number; facts: ProjectFacts }>();
  kept.set(db, projects);
  let entry = projects.get(actor.projectId);
  if (entry?.version !== version) {
    // Read after the session read `version`: at least as new as it, so right for every read that finds it.
    const { pages, grants } = await readFacts(db, actor.projectId, null);
    entry = { version, facts: { pages, grants } };
    projects.delete(actor.projectId);
    projects.set(actor.projectId, entry);
    if (projects.size > KEPT_PROJECTS) projects.delete(projects.keys().next().value!);
  }
  return { administers, project: entry.facts, roleIds: context.monitoringRoleIds };
}

/** Pages and grants kept by database handle and project, with the version they were read for; at most this many. */
const kept = new WeakMap<object, Map<number, { version: number; facts: ProjectFacts }>>();
const KEPT_PROJECTS = 200;

/** The project's pages and grants, and the monitoring roles of `userId` (none for null), in one statement. */
async function readFacts(db: DbOrTx, projectId: number, userId: number | null) {
  const json = <T>(query: SQL) => sql<T>`(select coalesce(json_agg(x), '[]') from (${query}) x)`;
  const [facts] = await db
    .select({
      pages: json<AccessPage[]>(
        sql`select ${monPages.id} as "id", ${monPages.parentId} as "parentId", ${monPages.number} as "number",
          ${monPages.title} as "title", ${monPages.depth} as "depth", ${monPages.restricted} as "restricted",
          ${monPages.ownerId} as "ownerId", ${monPages.position} as "position", ${monPages.status} as "status"
          from ${monPages} where ${monPages.projectId} = ${projectId} and ${monPages.deletedAt} is null
          order by ${monPages.position}, ${monPages.id}`,
      ),
      grants: json<GrantRow[]>(
        sql`select ${monPagePermissions.id} as "id", ${monPagePermissions.pageId} as "pageId",
          ${monPagePermissions.roleId} as "roleId", ${monPagePermissions.userId} as "userId",
          ${monPagePermissions.level} as "level"
          from ${monPagePermissions} where ${monPagePermissions.projectId} = ${projectId}
          order by ${monPagePermissions.id}`,
      ),
      roleIds: json<{ roleId: number }[]>(
        sql`select ${monRoleMembers.roleId} as "roleId" from ${monRoleMembers}
          where ${monRoleMembers.projectId} = ${projectId} and ${monRoleMembers.userId} = ${userId ?? 0}`,
      ),
    })
    .from(sql`(select 1) as one`);
  return { pages: facts!.pages, grants: facts!.grants, roleIds: facts!.roleIds.map((r) => r.roleId) };
}

/** The grant matrix of a project's facts, computed once per facts (kept facts are shared by the reads that find them). */
const matrices = new WeakMap<ProjectFacts, Map<number, MatrixPage>>();
function matrixOf(facts: ProjectFacts): Map<number, MatrixPage> {
  const matrix = matrices.get(facts) ?? computeMatrix(treeOrder(facts.pages), facts.grants);
  matrices.set(facts, matrix);
  return matrix;
}

function levelsOf(actor: MonitoringActor, facts: Awaited<ReturnType<typeof accessFacts>>) {
  if (facts.administers) return new Map(facts.project.pages.map((page) => [page.id, 'manage' as const]));
  return levelsFromMatrix(matrixOf(facts.project), { userId: actor.userId, roleIds: facts.roleIds });
}

/** Viewers and data entry see published pages only, unless a grant or ownership lets them edit the page. */
const seesPublishedOnly = (actor: MonitoringActor) =>
  !actor.isSuperadmin && (actor.role === 'viewer' || actor.role === 'data_entry');

/**
 * What the actor may do on every live page of the project: loadPageAccess, with drafts and archived pages hidden
 * from viewers who may not edit them. A hidden page hides its branch, as in loadPageAccess.
 */
export async function effectivePageAccess(db: DbOrTx, actor: MonitoringActor): Promise<Map<number, PageAccessLevel>> {
  const facts = await accessFacts(db, actor);
  const access = levelsOf(actor, facts);
  if (!seesPublishedOnly(actor)) return access;
  const sorted = [...facts.project.pages].sort((a, b) => a.depth - b.depth || a.id - b.id);
  for (const page of sorted) {
    const level = access.get(page.id) ?? 'none';
    const parentHidden = page.parentId !== null && (access.get(page.parentId) ?? 'none') === 'none';
    if (parentHidden || (page.status !== 'published' && !atLeast(level, 'edit'))) access.set(page.id, 'none');
  }
  return access;
}

/**
 * The facts the page rules read (policies/monitoring-records.ts): the actor's level on the page, or 404 (`missing`)
 * when the page is not in this project, deleted, or hidden from them.
 */
export async function pageFacts(
  db: DbOrTx,
  actor: MonitoringActor,
  pageId: number,
  missing = 'Page not found.',
): Promise<PageFacts> {
  const level = (await effectivePageAccess(db, actor)).get(pageId) ?? 'none';
  if (level === 'none') throw notFound(missing);
  return { projectId: actor.projectId, level };
}

/**
 * The actor's level on one page, or 404 when the page is not in this project, deleted, or hidden from them (a
 * hidden page is answered exactly like a missing one).
 */
export async function requirePageAccess(
  db: DbOrTx,
  actor: MonitoringActor,
  pageId: number,
  wanted: Exclude<PageAccessLevel, 'none'> = 'view',
): Promise<PageAccessLevel> {
  const page = await pageFacts(db, actor, pageId);
  if (wanted !== 'view') authorize(pageRules, wanted, actor, page);
  return page.level;
}

// ---------------------------------------------------------------------------------------------------------------
// The grant matrix: how grants are inherited down the tree, once, for the access above and the permissions screens.

export interface TreePage {
  id: number;
  parentId: number | null;
  number: string | null;
  title: string;
  depth: number;
  restricted: boolean;
  ownerId: number | null;
}

export interface GrantRow {
  id: number;
  pageId: number;
  roleId: number | null;
  userId: number | null;
  level: PageGrantLevel;
}

/** A subject of grants: `r{roleId}` or `u{userId}`. */
export type SubjectKey = `r${number}` | `u${number}`;
const subjectOf = (grant: { roleId: number | null; userId: number | null }): SubjectKey =>
  grant.roleId !== null ? `r${grant.roleId}` : `u${grant.userId ?? 0}`;

export interface MatrixCell {
  level: PageGrantLevel;
  /** The page the grant sits on: the page itself for an explicit grant, else the ancestor it is inherited from. */
  fromPageId: number;
}

export interface MatrixPage {
  page: TreePage;
  /** No restricted page on its path (itself included): every monitoring user views it. */
  open: boolean;
  /** Each subject's effective grant on the page, inheritance applied. */
  effective: Map<SubjectKey, MatrixCell>;
}

type PageRow = TreePage & { position: number };

/** The live pages of the project in tree order (parents before children, siblings by position). */
export async function loadTree(db: DbOrTx, projectId: number): Promise<TreePage[]> {
  const rows = await db
    .select({
      id: monPages.id,
      parentId: monPages.parentId,
      number: monPages.number,
      title: monPages.title,
      depth: monPages.depth,
      restricted: monPages.restricted,
      ownerId: monPages.ownerId,
      position: monPages.position,
    })
    .from(monPages)
    .where(and(eq(monPages.projectId, projectId), isNull(monPages.deletedAt)))
    .orderBy(asc(monPages.position), asc(monPages.id));
  return treeOrder(rows);
}

/** Pages ordered by position put in tree order: parents before children (an orphan is left out). */
function treeOrder<P extends PageRow>(rows: readonly P[]): TreePage[] {
  const children = new Map<number | null, P[]>();
  for (const row of rows) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row]);
  const ordered: TreePage[] = [];
  const visit = (parentId: number | null) => {
    for (const { id, parentId: parent, number, title, depth, restricted, ownerId } of children.get(parentId) ?? []) {
      ordered.push({ id, parentId: parent, number, title, depth, restricted, ownerId });
      visit(id);
    }
  };
  visit(null);
  return ordered;
}

/**
 * Inheritance of grants down the tree, per subject. Pages whose parent is missing (an orphan below a deleted page)
 * are left out, as loadPageAccess hides them.
 */
export function computeMatrix(pages: TreePage[], grants: GrantRow[]): Map<number, MatrixPage> {
  const own = new Map<number, GrantRow[]>();
  for (const grant of grants) own.set(grant.pageId, [...(own.get(grant.pageId) ?? []), grant]);
  const matrix = new Map<number, MatrixPage>();
  for (const page of pages) {
    const parent = page.parentId === null ? null : matrix.get(page.parentId);
    if (page.parentId !== null && !parent) continue;
    const effective = new Map<SubjectKey, MatrixCell>(page.restricted || !parent ? [] : parent.effective);
    for (const grant of own.get(page.id) ?? []) {
      const key = subjectOf(grant);
      const inherited = effective.get(key);
      // An explicit grant at least as strong as the inherited one is what the page shows.
      if (!inherited || strongerLevel(grant.level, inherited.level) === grant.level) {
        effective.set(key, { level: grant.level, fromPageId: page.id });
      }
    }
    matrix.set(page.id, { page, open: !page.restricted && (parent ? parent.open : true), effective });
  }
  return matrix;
}

/**
 * A person's level on every page read from the matrix: their roles' and their own effective grants, the open pages,
 * their own pages; a hidden page hides its branch. Monitoring administrators are not asked here (they manage all).
 */
export function levelsFromMatrix(
  matrix: Map<number, MatrixPage>,
  person: { userId: number; roleIds: readonly number[] },
): Map<number, PageAccessLevel> {
  const subjects = new Set<SubjectKey>([`u${person.userId}`, ...person.roleIds.map((id) => `r${id}` as const)]);
  const levels = new Map<number, PageAccessLevel>();
  for (const { page, open, effective } of matrix.values()) {
    if (page.parentId !== null && levels.get(page.parentId) === 'none') {
      levels.set(page.id, 'none');
      continue;
    }
    let level: PageAccessLevel = open ? 'view' : 'none';
    for (const [key, cell] of effective) if (subjects.has(key)) level = strongerLevel(level, cell.level);
    if (page.ownerId === person.userId) level = strongerLevel(level, 'edit');
    levels.set(page.id, level);
  }
  return levels;
}

async function loadGrants(db: DbOrTx, projectId: number): Promise<GrantRow[]> {
  const rows = await db
    .select({
      id: monPagePermissions.id,
      pageId: monPagePermissions.pageId,
      roleId: monPagePermissions.roleId,
      userId: monPagePermissions.userId,
      level: monPagePermissions.level,
    })
    .from(monPagePermissions)
    .where(eq(monPagePermissions.projectId, projectId))
    .orderBy(asc(monPagePermissions.id));
  return rows.map((row) => ({ ...row, level: row.level as PageGrantLevel }));
}

export async function loadMatrix(db: DbOrTx, projectId: number) {
  const [pages, grants] = await Promise.all([loadTree(db, projectId), loadGrants(db, projectId)]);
  return { matrix: computeMatrix(pages, grants), grants };
}
