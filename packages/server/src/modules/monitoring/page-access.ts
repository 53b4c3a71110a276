import { atLeast, type PageAccessLevel, strongerLevel } from '@portal/shared';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { monPagePermissions, monPages, monRoleMembers } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { administersMonitoring, type MonitoringActor } from '../../policies/monitoring.js';

/**
 * What the actor may do on every live page of the project (decision record 008), computed top-down in one pass:
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
  const pages = await db
    .select({
      id: monPages.id,
      parentId: monPages.parentId,
      ownerId: monPages.ownerId,
      restricted: monPages.restricted,
    })
    .from(monPages)
    .where(and(eq(monPages.projectId, actor.projectId), isNull(monPages.deletedAt)))
    .orderBy(asc(monPages.depth), asc(monPages.id));
  const access = new Map<number, PageAccessLevel>();
  if (administersMonitoring(actor)) {
    for (const page of pages) access.set(page.id, 'manage');
    return access;
  }
  const grants = await grantsOf(db, actor);
  // Ordered by depth, a parent is always settled before its children.
  const inherited = new Map<number, { grant: PageAccessLevel; open: boolean }>();
  for (const page of pages) {
    const parent = page.parentId === null ? null : inherited.get(page.parentId);
    if (page.parentId !== null && (!parent || access.get(page.parentId) === 'none')) {
      access.set(page.id, 'none');
      inherited.set(page.id, { grant: 'none', open: false });
      continue;
    }
    const own = grants.get(page.id) ?? 'none';
    const grant = page.restricted || !parent ? own : strongerLevel(parent.grant, own);
    const open = !page.restricted && (parent ? parent.open : true);
    let level = strongerLevel(grant, open ? 'view' : 'none');
    if (page.ownerId === actor.userId) level = strongerLevel(level, 'edit');
    access.set(page.id, level);
    inherited.set(page.id, { grant, open });
  }
  return access;
}

/** The strongest grant on each page to the actor or to one of their monitoring roles. */
async function grantsOf(db: DbOrTx, actor: MonitoringActor): Promise<Map<number, PageAccessLevel>> {
  const roleIds = (
    await db
      .select({ roleId: monRoleMembers.roleId })
      .from(monRoleMembers)
      .where(and(eq(monRoleMembers.projectId, actor.projectId), eq(monRoleMembers.userId, actor.userId)))
  ).map((row) => row.roleId);
  const rows = await db
    .select({
      pageId: monPagePermissions.pageId,
      roleId: monPagePermissions.roleId,
      userId: monPagePermissions.userId,
      level: monPagePermissions.level,
    })
    .from(monPagePermissions)
    .where(eq(monPagePermissions.projectId, actor.projectId));
  const grants = new Map<number, PageAccessLevel>();
  for (const row of rows) {
    const mine = row.userId === actor.userId || (row.roleId !== null && roleIds.includes(row.roleId));
    if (!mine) continue;
    grants.set(row.pageId, strongerLevel(grants.get(row.pageId) ?? 'none', row.level as PageAccessLevel));
  }
  return grants;
}

/** Viewers and data entry see published pages only, unless a grant or ownership lets them edit the page. */
const seesPublishedOnly = (actor: MonitoringActor) =>
  !actor.isSuperadmin && (actor.role === 'viewer' || actor.role === 'data_entry');

/**
 * What the actor may do on every live page of the project: loadPageAccess, with drafts and archived pages hidden
 * from viewers who may not edit them. A hidden page hides its branch, as in loadPageAccess.
 */
export async function effectivePageAccess(
  db: DbOrTx,
  actor: MonitoringActor,
  pages?: { id: number; parentId: number | null; status: string; depth: number }[],
): Promise<Map<number, PageAccessLevel>> {
  const access = await loadPageAccess(db, actor);
  if (!seesPublishedOnly(actor)) return access;
  const rows =
    pages ??
    (await db
      .select({ id: monPages.id, parentId: monPages.parentId, status: monPages.status, depth: monPages.depth })
      .from(monPages)
      .where(and(eq(monPages.projectId, actor.projectId), isNull(monPages.deletedAt))));
  const sorted = [...rows].sort((a, b) => a.depth - b.depth || a.id - b.id);
  for (const page of sorted) {
    const level = access.get(page.id) ?? 'none';
    const parentHidden = page.parentId !== null && (access.get(page.parentId) ?? 'none') === 'none';
    if (parentHidden || (page.status !== 'published' && !atLeast(level, 'edit'))) access.set(page.id, 'none');
  }
  return access;
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
  const level = (await effectivePageAccess(db, actor)).get(pageId) ?? 'none';
  if (level === 'none') throw new AppError('NOT_FOUND', 'Page not found.');
  if (!atLeast(level, wanted)) {
    throw new AppError('FORBIDDEN', 'You may not change this page.');
  }
  return level;
}
