import {
  atLeast,
  BULK_STALE_MESSAGE,
  branchHeight,
  branchOf,
  hasCycle,
  MAX_PAGE_LEVELS,
  type NumberChangeRow,
  type NumberingMode,
  type NumberingResult,
  type NumberingSettings,
  numberTree,
  OUTLINE_MAX_PAGES,
  OUTLINE_TYPE_MESSAGE,
  type OutlineItem,
  type PageBulkRow,
  type PageLevel,
  type PageLevelBody,
  type PageMove,
  type PageStatus,
} from '@portal/shared';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { monPageLevels, monPages, monSettings } from '../../db/schema/index.js';
import { changes } from '../../lib/audit-diff.js';
import { convertDocx, sniffUpload } from '../../lib/docx.js';
import { AppError, addFieldError, notFound } from '../../lib/errors.js';
import { administersMonitoring, type MonitoringActor } from '../../policies/monitoring.js';
import { pageRules } from '../../policies/monitoring-records.js';
import { authorize, can } from '../../policies/rules.js';
import { effectivePageAccess } from './page-access.js';
import { ensureLevels, lockTree, nextPositionUnder, ownerCandidates, STALE_PAGE_MESSAGE } from './pages.service.js';
import { monitoringAudit } from './people.service.js';
import { numberingModeOf, renumberPages } from './tree.service.js';
import { visiblePages } from './visibility.js';

/**
 * The structure of the page tree (issue 8; decision record 008; docs/monitoring.md "Tree structure"): levels,
 * numbering mode and renumbering, moves, the bulk grid and outline import. Structural changes take the tree lock
 * (lockTree) and renumber in the same transaction; a page the actor may not see answers 404 and its title never
 * appears in an answer.
 */

type PageRow = typeof monPages.$inferSelect;
type Change = { id: number; from: string | null; to: string | null };

const fieldError = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { [field]: [message] });
export const MOVE_UNDER_ITSELF = 'A page cannot move under itself or its own sub-pages.';
const tooDeep = (levels: number) =>
  `The tree has ${levels} ${levels === 1 ? 'level' : 'levels'}: this would put pages deeper than level ${levels}. Add a level first, or choose another parent.`;

/** Every live page of the project. */
function livePages(db: DbOrTx, projectId: number): Promise<PageRow[]> {
  return db
    .select()
    .from(monPages)
    .where(and(eq(monPages.projectId, projectId), isNull(monPages.deletedAt)))
    .orderBy(asc(monPages.position), asc(monPages.id));
}

/** The changes with the titles of the pages the actor may see (the others are counted, never named). */
async function visibleChanges(db: DbOrTx, actor: MonitoringActor, changes: Change[]): Promise<NumberChangeRow[]> {
  if (changes.length === 0) return [];
  const access = await effectivePageAccess(db, actor);
  const titles = new Map(
    (
      await db
        .select({ id: monPages.id, title: monPages.title })
        .from(monPages)
        .where(
          and(
            eq(monPages.projectId, actor.projectId),
            inArray(
              monPages.id,
              changes.map((change) => change.id),
            ),
          ),
        )
    ).map((row) => [row.id, row.title]),
  );
  return changes
    .filter((change) => (access.get(change.id) ?? 'none') !== 'none' && titles.has(change.id))
    .map((change) => ({ id: change.id, title: titles.get(change.id)!, from: change.from, to: change.to }));
}

/** "1.3 -> 2.1" for the audit. */
const describeChanges = (changes: Change[]) =>
  changes.map((change) => `${change.from ?? '(none)'} -> ${change.to ?? '(none)'}`);

// ------------------------------------------------------------------ levels

/** The page levels, each with how many of the pages the actor may see sit at that depth. */
export async function listLevels(db: DbOrTx, actor: MonitoringActor): Promise<PageLevel[]> {
  const levels = await ensureLevels(db, actor.projectId);
  const counts = await db
    .select({ depth: monPages.depth, n: count() })
    .from(monPages)
    .where(and(eq(monPages.projectId, actor.projectId), isNull(monPages.deletedAt), await visiblePages(db, actor)))
    .groupBy(monPages.depth);
  return levels.map((level) => ({
    id: level.id,
    depth: level.depth,
    name: level.name,
    icon: level.icon,
    may_hold_measures: level.mayHoldMeasures,
    page_count: counts.find((row) => row.depth === level.depth)?.n ?? 0,
  }));
}

async function checkLevelName(db: DbOrTx, projectId: number, name: string, exceptId?: number) {
  const levels = await ensureLevels(db, projectId);
  if (levels.some((level) => level.id !== exceptId && level.name.toLowerCase() === name.toLowerCase())) {
    throw fieldError('name', 'Another level has this name.');
  }
}

/** POST /page-levels: the next depth. */
export async function addLevel(
  db: Database,
  actor: MonitoringActor,
  body: Required<PageLevelBody>,
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const levels = await ensureLevels(tx, actor.projectId);
    if (levels.length >= MAX_PAGE_LEVELS) {
      throw new AppError('CONFLICT', `The tree has the most levels it may have (${MAX_PAGE_LEVELS}).`);
    }
    await checkLevelName(tx, actor.projectId, body.name);
    const depth = (levels.at(-1)?.depth ?? 0) + 1;
    const [row] = await tx
      .insert(monPageLevels)
      .values({
        projectId: actor.projectId,
        depth,
        name: body.name,
        icon: body.icon,
        mayHoldMeasures: body.may_hold_measures,
        createdBy: actor.userId,
        updatedBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: monPageLevels.id });
    await monitoringAudit(
      tx,
      actor,
      'level_created',
      { type: 'mon_page_level', id: row!.id },
      { depth, name: body.name },
      now,
    );
    return row!.id;
  });
}

async function levelOf(db: DbOrTx, projectId: number, levelId: number) {
  const [level] = await db
    .select()
    .from(monPageLevels)
    .where(and(eq(monPageLevels.projectId, projectId), eq(monPageLevels.id, levelId)));
  if (!level) throw notFound('Level not found.');
  return level;
}

/** PUT /page-levels/{id}. */
export async function updateLevel(
  db: Database,
  actor: MonitoringActor,
  levelId: number,
  body: Required<PageLevelBody>,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    await ensureLevels(tx, actor.projectId);
    const level = await levelOf(tx, actor.projectId, levelId);
    await checkLevelName(tx, actor.projectId, body.name, levelId);
    await tx
      .update(monPageLevels)
      .set({
        name: body.name,
        icon: body.icon,
        mayHoldMeasures: body.may_hold_measures,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(and(eq(monPageLevels.projectId, actor.projectId), eq(monPageLevels.id, levelId)));
    await monitoringAudit(
      tx,
      actor,
      'level_updated',
      { type: 'mon_page_level', id: levelId },
      {
        depth: level.depth,
        name: { from: level.name, to: body.name },
        icon: body.icon,
        may_hold_measures: body.may_hold_measures,
        changes: changes(
          { name: level.name, icon: level.icon, may_hold_measures: level.mayHoldMeasures },
          { name: body.name, icon: body.icon, may_hold_measures: body.may_hold_measures },
        ),
      },
      now,
    );
  });
}

/** DELETE /page-levels/{id}: only the deepest level, only while no live page is that deep, never the last one. */
export async function deleteLevel(db: Database, actor: MonitoringActor, levelId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const levels = await ensureLevels(tx, actor.projectId);
    const level = await levelOf(tx, actor.projectId, levelId);
    if (level.depth !== levels.at(-1)?.depth) {
      throw new AppError('CONFLICT', 'Only the deepest level can be deleted. Delete the levels below it first.');
    }
    if (levels.length === 1) throw new AppError('CONFLICT', 'The tree needs at least one level.');
    const [pages] = await tx
      .select({ n: count() })
      .from(monPages)
      .where(and(eq(monPages.projectId, actor.projectId), isNull(monPages.deletedAt), eq(monPages.depth, level.depth)));
    if ((pages?.n ?? 0) > 0) {
      const n = pages!.n;
      throw new AppError(
        'CONFLICT',
        `${n} ${n === 1 ? 'page is' : 'pages are'} at the level "${level.name}". Move or delete ${n === 1 ? 'it' : 'them'} first.`,
      );
    }
    await tx
      .delete(monPageLevels)
      .where(and(eq(monPageLevels.projectId, actor.projectId), eq(monPageLevels.id, levelId)));
    await monitoringAudit(
      tx,
      actor,
      'level_deleted',
      { type: 'mon_page_level', id: levelId },
      {
        depth: level.depth,
        name: level.name,
      },
      now,
    );
  });
}

// ------------------------------------------------------------------ numbering

export async function numberingSettings(db: DbOrTx, projectId: number): Promise<NumberingSettings> {
  const [pages] = await db
    .select({ n: count() })
    .from(monPages)
    .where(and(eq(monPages.projectId, projectId), isNull(monPages.deletedAt)));
  return { mode: await numberingModeOf(db, projectId), pages: pages?.n ?? 0 };
}

/** POST /numbering: switching to auto renumbers the whole tree; to manual keeps every number as it is. */
export async function setNumberingMode(
  db: Database,
  actor: MonitoringActor,
  mode: NumberingMode,
  now: Date,
): Promise<NumberingResult> {
  const changes = await db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const before = await numberingModeOf(tx, actor.projectId);
    await tx
      .insert(monSettings)
      .values({ projectId: actor.projectId, numberingMode: mode, updatedAt: now, updatedBy: actor.userId })
      .onConflictDoUpdate({
        target: monSettings.projectId,
        set: { numberingMode: mode, updatedAt: now, updatedBy: actor.userId },
      });
    const changes = mode === 'auto' ? await renumberPages(tx, actor.projectId) : [];
    await monitoringAudit(
      tx,
      actor,
      'numbering_changed',
      { type: 'mon_settings', id: actor.projectId },
      { from: before, to: mode, changes: changes.length, renumbered: describeChanges(changes) },
      now,
    );
    return changes;
  });
  return { mode, changed: changes.length, changes: await visibleChanges(db, actor, changes) };
}

/** Takes the numbers off these pages first, so a swap between two of them never collides midway. */
async function clearNumbers(tx: DbOrTx, projectId: number, pageIds: number[]): Promise<void> {
  await tx
    .update(monPages)
    .set({ number: null })
    .where(and(eq(monPages.projectId, projectId), inArray(monPages.id, pageIds)));
}

/** What automatic numbering gives each live page, against the numbers they have. */
async function plannedNumbers(db: DbOrTx, projectId: number): Promise<Change[]> {
  const pages = await livePages(db, projectId);
  const numbers = numberTree(pages.map((page) => ({ id: page.id, parent_id: page.parentId, position: page.position })));
  const changes: Change[] = [];
  const walkOrder = [...numbers.entries()];
  for (const [id, to] of walkOrder) {
    const page = pages.find((candidate) => candidate.id === id)!;
    if (page.number !== to) changes.push({ id, from: page.number, to });
  }
  return changes;
}

/** GET /numbering/preview: what automatic numbering would change, without writing. */
export async function previewNumbers(db: DbOrTx, actor: MonitoringActor): Promise<NumberChangeRow[]> {
  return visibleChanges(db, actor, await plannedNumbers(db, actor.projectId));
}

/**
 * POST /numbering/apply: gives every page its number from the tree now. In automatic mode this is the renumbering
 * the tree already follows; in manual mode it resets the typed numbers once and the mode stays manual.
 */
export async function applyNumbers(db: Database, actor: MonitoringActor, now: Date): Promise<NumberingResult> {
  const result = await db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const mode = await numberingModeOf(tx, actor.projectId);
    // Positions and depths first, so the numbers below follow exactly the order people see.
    const structural = await renumberPages(tx, actor.projectId);
    let changes: Change[] = structural;
    if (mode === 'manual') {
      const planned = await plannedNumbers(tx, actor.projectId);
      if (planned.length) {
        await clearNumbers(
          tx,
          actor.projectId,
          planned.map((change) => change.id),
        );
        for (const change of planned) {
          await tx
            .update(monPages)
            .set({ number: change.to, version: sql`${monPages.version} + 1` })
            .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, change.id)));
        }
      }
      changes = planned;
    }
    await monitoringAudit(
      tx,
      actor,
      'pages_renumbered',
      { type: 'mon_settings', id: actor.projectId },
      { mode, changes: changes.length, renumbered: describeChanges(changes) },
      now,
    );
    return { mode, changes };
  });
  return {
    mode: result.mode,
    changed: result.changes.length,
    changes: await visibleChanges(db, actor, result.changes),
  };
}

// ------------------------------------------------------------------ moves

/**
 * POST /pages/{id}/move: the page (with its branch) goes under `parent_id`, before `before_id` or last. Needs edit
 * access on the page and on the new parent; the top level is for monitoring administrators.
 */
export async function movePage(
  db: Database,
  actor: MonitoringActor,
  pageId: number,
  move: PageMove,
  now: Date,
): Promise<Change[]> {
  return db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const levels = await ensureLevels(tx, actor.projectId);
    const access = await effectivePageAccess(tx, actor);
    const level = access.get(pageId) ?? 'none';
    if (level === 'none') throw notFound('Page not found.');
    authorize(pageRules, 'edit', actor, { projectId: actor.projectId, level });
    const pages = await livePages(tx, actor.projectId);
    const page = pages.find((candidate) => candidate.id === pageId);
    if (!page) throw notFound('Page not found.');
    const items = pages.map((row) => ({ id: row.id, parent_id: row.parentId, position: row.position }));

    let parentDepth = 0;
    if (move.parent_id === null) {
      if (!administersMonitoring(actor))
        throw fieldError('parent_id', 'Only monitoring administrators add top-level pages.');
    } else {
      const parentLevel = access.get(move.parent_id) ?? 'none';
      const parent = pages.find((candidate) => candidate.id === move.parent_id);
      if (parentLevel === 'none' || !parent) throw fieldError('parent_id', 'Choose a page you may edit.');
      if (branchOf(items, pageId).has(move.parent_id)) throw fieldError('parent_id', MOVE_UNDER_ITSELF);
      if (!atLeast(parentLevel, 'edit')) throw fieldError('parent_id', 'Choose a page you may edit.');
      parentDepth = parent.depth;
    }
    if (parentDepth + 1 + branchHeight(items, pageId) > levels.length) {
      throw fieldError('parent_id', tooDeep(levels.length));
    }
    const siblings = pages.filter((row) => row.parentId === move.parent_id && row.id !== pageId);
    let index = siblings.length;
    if (move.before_id !== undefined && move.before_id !== null) {
      index = siblings.findIndex((row) => row.id === move.before_id);
      if (index < 0 || (access.get(move.before_id) ?? 'none') === 'none') {
        throw fieldError('before_id', 'Choose a page under the new parent to place it before.');
      }
    }
    if (page.version !== move.version) {
      throw new AppError('CONFLICT', STALE_PAGE_MESSAGE, { version: [String(page.version)] });
    }
    const order = [...siblings.slice(0, index), page, ...siblings.slice(index)];
    for (const [position, row] of order.entries()) {
      if (row.id === pageId) continue;
      if (row.position !== position) {
        await tx
          .update(monPages)
          .set({ position })
          .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, row.id)));
      }
    }
    await tx
      .update(monPages)
      .set({
        parentId: move.parent_id,
        position: index,
        version: page.version + 1,
        updatedAt: now,
        updatedBy: actor.userId,
      })
      .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, pageId)));
    const changes = await renumberPages(tx, actor.projectId);
    await monitoringAudit(
      tx,
      actor,
      'page_moved',
      { type: 'mon_page', id: pageId },
      {
        from: { parent_id: page.parentId, position: page.position },
        to: { parent_id: move.parent_id, position: index },
        version: page.version + 1,
        renumbered: describeChanges(changes),
      },
      now,
    );
    return changes;
  });
}

// ------------------------------------------------------------------ bulk update

/**
 * POST /pages/bulk: every row is checked first (errors keyed rows.{index}.{field}); then all are written in one
 * transaction and the tree renumbered, or nothing is.
 */
export async function bulkUpdate(
  db: Database,
  actor: MonitoringActor,
  rows: PageBulkRow[],
  now: Date,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const levels = await ensureLevels(tx, actor.projectId);
    const access = await effectivePageAccess(tx, actor);
    const pages = await livePages(tx, actor.projectId);
    const byId = new Map(pages.map((page) => [page.id, page]));
    const mode = await numberingModeOf(tx, actor.projectId);
    const owners = new Set((await ownerCandidates(tx, actor.projectId)).map((person) => person.id));
    const errors: Record<string, string[]> = {};
    const fail = (index: number, field: string, message: string) =>
      addFieldError(errors, `rows.${index}.${field}`, message);

    const seen = new Set<number>();
    const valid: { index: number; row: PageBulkRow; page: PageRow }[] = [];
    for (const [index, row] of rows.entries()) {
      const page = byId.get(row.id);
      const level = access.get(row.id) ?? 'none';
      if (seen.has(row.id)) {
        fail(index, 'id', 'This page is listed twice.');
        continue;
      }
      seen.add(row.id);
      if (!page || level === 'none') {
        fail(index, 'id', 'Page not found.');
        continue;
      }
      if (!can(pageRules, 'edit', actor, { projectId: actor.projectId, level })) {
        fail(index, 'id', pageRules.refusal);
        continue;
      }
      if (page.version !== row.version) fail(index, 'version', BULK_STALE_MESSAGE);
      if (row.owner_id !== undefined && row.owner_id !== null && row.owner_id !== page.ownerId) {
        if (!owners.has(row.owner_id)) fail(index, 'owner_id', 'Choose a monitoring user of this project.');
      }
      if (row.number !== undefined && row.number !== page.number && mode === 'auto') {
        fail(index, 'number', 'Numbers follow the tree in automatic numbering.');
      }
      if (row.number === null && page.number !== null && mode === 'manual') {
        fail(index, 'number', 'Enter a number: this project numbers its pages by hand.');
      }
      if (row.parent_id !== undefined && row.parent_id !== page.parentId) {
        if (row.parent_id === null) {
          if (!administersMonitoring(actor))
            fail(index, 'parent_id', 'Only monitoring administrators add top-level pages.');
        } else if (!byId.has(row.parent_id) || !atLeast(access.get(row.parent_id) ?? 'none', 'edit')) {
          fail(index, 'parent_id', 'Choose a page you may edit.');
        }
      }
      valid.push({ index, row, page });
    }

    // The tree as it would be: cycles, depth and manual numbers are checked on the whole result.
    const parents = new Map(pages.map((page) => [page.id, page.parentId]));
    const moved = valid.filter(({ row, page }) => row.parent_id !== undefined && row.parent_id !== page.parentId);
    for (const { row } of moved) parents.set(row.id, row.parent_id!);
    const result = pages.map((page) => ({ id: page.id, parent_id: parents.get(page.id)!, position: page.position }));
    for (const { index, row } of moved) {
      const field = `rows.${index}.parent_id`;
      if (errors[field]) continue;
      if (hasCycle(parents, row.id)) {
        fail(index, 'parent_id', MOVE_UNDER_ITSELF);
        continue;
      }
      let depth = 1;
      for (let parent = parents.get(row.id) ?? null; parent !== null; parent = parents.get(parent) ?? null) depth++;
      if (depth + branchHeight(result, row.id) > levels.length) fail(index, 'parent_id', tooDeep(levels.length));
    }
    if (mode === 'manual') {
      const numbers = new Map(pages.map((page) => [page.id, page.number]));
      for (const { row } of valid) if (row.number !== undefined) numbers.set(row.id, row.number);
      const holders = new Map<string, number[]>();
      for (const [id, number] of numbers) {
        if (number === null) continue;
        holders.set(number, [...(holders.get(number) ?? []), id]);
      }
      for (const { index, row } of valid) {
        if (row.number === undefined || row.number === null) continue;
        if ((holders.get(row.number)?.length ?? 0) > 1) fail(index, 'number', `Number ${row.number} is already used.`);
      }
    }
    if (Object.keys(errors).length > 0) {
      const first = Object.values(errors)[0]![0]!;
      throw new AppError('VALIDATION_FAILED', `Some rows cannot be saved: ${first}`, errors);
    }

    // Apply: numbers are cleared first so a swap between two pages never collides midway.
    const changedIds: number[] = [];
    const fields: Record<number, string[]> = {};
    const renumber = valid.filter(({ row, page }) => row.number !== undefined && row.number !== page.number);
    if (renumber.length) {
      await clearNumbers(
        tx,
        actor.projectId,
        renumber.map(({ row }) => row.id),
      );
    }
    for (const [order, { row, page }] of valid.entries()) {
      const next: Partial<PageRow> = {};
      const changed: string[] = [];
      if (row.title !== undefined && row.title !== page.title) {
        next.title = row.title;
        changed.push('title');
      }
      if (row.status !== undefined && row.status !== page.status) {
        next.status = row.status satisfies PageStatus;
        changed.push('status');
      }
      if (row.owner_id !== undefined && row.owner_id !== page.ownerId) {
        next.ownerId = row.owner_id;
        changed.push('owner_id');
      }
      if (row.number !== undefined && row.number !== page.number) {
        next.number = row.number;
        changed.push('number');
      }
      if (row.parent_id !== undefined && row.parent_id !== page.parentId) {
        next.parentId = row.parent_id;
        // Last under the new parent, in the order of the rows; renumberPages closes the gaps.
        next.position = 1_000_000 + order;
        changed.push('parent_id');
      }
      if (changed.length === 0) continue;
      changedIds.push(row.id);
      fields[row.id] = changed;
      await tx
        .update(monPages)
        .set({ ...next, version: page.version + 1, updatedAt: now, updatedBy: actor.userId })
        .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, row.id)));
    }
    const renumbered = changedIds.length ? await renumberPages(tx, actor.projectId) : [];
    if (changedIds.length) {
      await monitoringAudit(
        tx,
        actor,
        'pages_bulk_updated',
        { type: 'project', id: actor.projectId },
        { ids: changedIds, fields, renumbered: describeChanges(renumbered) },
        now,
      );
    }
    return changedIds;
  });
}

// ------------------------------------------------------------------ outline import

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (/^#x/i.test(code)) return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
      if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
      return ENTITIES[code.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

const NUMBERED = /^((?:\d{1,4}\.)*\d{1,4})\.?\s+(.+)$/;

/** A title with a typed dotted number in front of it ("1.2 Hand hygiene"): the number and the rest. */
function splitNumber(text: string): { number: string | null; title: string; depth: number | null } {
  const match = NUMBERED.exec(text);
  if (!match) return { number: null, title: text, depth: null };
  return { number: match[1]!, title: match[2]!.trim(), depth: match[1]!.split('.').length };
}

/**
 * A Word file's outline: its headings (Heading 1/2/3... give depth 1/2/3...), or, when it has none, its list items
 * (a nested list item is one level deeper).
 */
export function outlineFromHtml(html: string): OutlineItem[] {
  const items: OutlineItem[] = [];
  for (const match of html.matchAll(/<h([1-6])[^>]*>([\s\S]*?)<\/h\1>/gi)) {
    const text = htmlText(match[2]!);
    if (!text) continue;
    const split = splitNumber(text);
    items.push({ title: split.title, depth: Number(match[1]), number: split.number });
  }
  if (items.length > 0) return items;
  let depth = 0;
  // Each <li>'s own text runs until the next list tag.
  for (const match of html.matchAll(/<(\/?)(ol|ul|li)\b[^>]*>([^<]*(?:<(?!\/?(?:ol|ul|li)\b)[^<]*)*)/gi)) {
    const [, closing, tag, rest] = match;
    if (tag!.toLowerCase() !== 'li') depth += closing ? -1 : 1;
    else if (!closing) {
      const text = htmlText(rest ?? '');
      if (!text) continue;
      const split = splitNumber(text);
      items.push({ title: split.title, depth: Math.max(1, depth), number: split.number });
    }
  }
  return items;
}

/**
 * A text or Markdown outline: "# Heading" levels, dotted numbers ("1.2 Title"), or indentation (tabs or spaces)
 * with optional bullets (-, *, +).
 */
export function outlineFromText(text: string): OutlineItem[] {
  const items: OutlineItem[] = [];
  // Indentation widths of the open levels; lines under a Markdown heading count from the heading's depth.
  let indents: number[] = [];
  let offset = 0;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    if (!raw.trim()) continue;
    const indent = (/^[ \t]*/.exec(raw)?.[0] ?? '').replace(/\t/g, '    ').length;
    let line = raw.trim();
    const heading = /^(#{1,8})\s+(.+)$/.exec(line);
    if (heading) {
      const split = splitNumber(heading[2]!.trim());
      items.push({ title: split.title, depth: heading[1]!.length, number: split.number });
      indents = [indent];
      offset = heading[1]!.length - 1;
      continue;
    }
    line = line.replace(/^[-*+•]\s+/, '');
    const split = splitNumber(line);
    if (split.depth !== null) {
      items.push({ title: split.title, depth: split.depth, number: split.number });
      indents = [indent];
      offset = split.depth - 1;
      continue;
    }
    while (indents.length > 0 && indents.at(-1)! > indent) indents.pop();
    if (indents.length === 0 || indents.at(-1)! < indent) indents.push(indent);
    items.push({ title: split.title, depth: offset + indents.length, number: null });
  }
  return items;
}

/** The outline made a tree: the first page at depth 1, no jump of more than one level, titles cut to 200. */
function tidy(items: OutlineItem[]): OutlineItem[] {
  const pages: OutlineItem[] = [];
  for (const item of items) {
    const title = item.title.slice(0, 200).trim();
    if (!title) continue;
    const previous = pages.at(-1)?.depth ?? 0;
    pages.push({ title, depth: Math.max(1, Math.min(item.depth, previous + 1)), number: item.number });
  }
  return pages;
}

const typeRefused = () => new AppError('VALIDATION_FAILED', OUTLINE_TYPE_MESSAGE, { file: [OUTLINE_TYPE_MESSAGE] });

/** The outline of an upload: a Word file by its content, else UTF-8 text; anything else is refused. */
export async function readOutline(data: Buffer): Promise<OutlineItem[]> {
  const kind = sniffUpload(data);
  let items: OutlineItem[];
  if (kind === 'docx') {
    // Images are not wanted in an outline: none is stored.
    const converted = await convertDocx(data, async () => '');
    items = outlineFromHtml(converted.html);
  } else if (kind === null) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      throw typeRefused();
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a binary file shows itself by its control characters
    if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) throw typeRefused();
    items = outlineFromText(text.replace(/^\uFEFF/, ''));
  } else {
    throw typeRefused();
  }
  const pages = tidy(items);
  if (pages.length === 0) {
    const message = 'No outline found: use headings or a numbered list in Word, or one title per line in a text file.';
    throw new AppError('VALIDATION_FAILED', message, { file: [message] });
  }
  if (pages.length > OUTLINE_MAX_PAGES) {
    const message = `The outline has ${pages.length} pages; at most ${OUTLINE_MAX_PAGES} can be imported at once.`;
    throw new AppError('VALIDATION_FAILED', message, { file: [message] });
  }
  return pages;
}

/** The depth of the parent the outline goes under (0 for the top level), after the access checks. */
async function outlineParent(
  db: DbOrTx,
  actor: MonitoringActor,
  parentId: number | null,
): Promise<{ depth: number; levels: number }> {
  const levels = (await ensureLevels(db, actor.projectId)).length;
  if (parentId === null) {
    if (!administersMonitoring(actor))
      throw fieldError('parent_id', 'Only monitoring administrators add top-level pages.');
    return { depth: 0, levels };
  }
  const access = await effectivePageAccess(db, actor);
  const [parent] = await db
    .select({ depth: monPages.depth })
    .from(monPages)
    .where(and(eq(monPages.projectId, actor.projectId), eq(monPages.id, parentId), isNull(monPages.deletedAt)));
  if (!parent || !atLeast(access.get(parentId) ?? 'none', 'edit')) {
    throw fieldError('parent_id', 'Choose a page you may edit.');
  }
  return { depth: parent.depth, levels };
}

function checkOutlineDepth(pages: OutlineItem[], parent: { depth: number; levels: number }) {
  const deepest = Math.max(...pages.map((page) => page.depth));
  if (parent.depth + deepest > parent.levels) {
    const room = parent.levels - parent.depth;
    const message =
      room <= 0
        ? `The tree has ${parent.levels} levels and this parent is on the deepest one: choose another parent.`
        : `The outline goes ${deepest} levels deep; under this parent pages may go ${room} ${room === 1 ? 'level' : 'levels'} deep (the tree has ${parent.levels}). Add a level or choose another parent.`;
    throw new AppError('VALIDATION_FAILED', message, { file: [message] });
  }
}

/** POST /pages/convert?preview=true: the outline, checked against the depth the parent leaves. */
export async function previewOutline(
  db: DbOrTx,
  actor: MonitoringActor,
  data: Buffer,
  parentId: number | null,
): Promise<OutlineItem[]> {
  const parent = await outlineParent(db, actor, parentId);
  const pages = await readOutline(data);
  checkOutlineDepth(pages, parent);
  return pages;
}

/** POST /pages/convert: creates the outline's pages as drafts under the parent, in one transaction. */
export async function createOutline(
  db: Database,
  actor: MonitoringActor,
  data: Buffer,
  parentId: number | null,
  fileName: string,
  now: Date,
): Promise<number> {
  const pages = await readOutline(data);
  return db.transaction(async (tx) => {
    await lockTree(tx, actor.projectId);
    const top = await outlineParent(tx, actor, parentId);
    checkOutlineDepth(pages, top);
    const mode = await numberingModeOf(tx, actor.projectId);
    const used = new Set(
      (
        await tx
          .select({ number: monPages.number })
          .from(monPages)
          .where(and(eq(monPages.projectId, actor.projectId), isNull(monPages.deletedAt)))
      ).map((row) => row.number),
    );
    const first = await nextPositionUnder(tx, actor.projectId, parentId);
    // The stack of the pages created at each depth: a page goes under the last one a level above it.
    const stack: number[] = [];
    const nextPosition = new Map<number | null, number>([[parentId, first]]);
    const ids: number[] = [];
    for (const page of pages) {
      stack.length = page.depth - 1;
      const parent = page.depth === 1 ? parentId : stack[page.depth - 2]!;
      const position = nextPosition.get(parent) ?? 0;
      nextPosition.set(parent, position + 1);
      // In manual mode a typed number is kept when it is free; other pages stay unnumbered for people to number.
      const number = mode === 'manual' && page.number && !used.has(page.number) ? page.number : null;
      if (number) used.add(number);
      const [row] = await tx
        .insert(monPages)
        .values({
          projectId: actor.projectId,
          parentId: parent,
          position,
          depth: top.depth + page.depth,
          number,
          title: page.title,
          status: 'draft',
          createdBy: actor.userId,
          updatedBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: monPages.id });
      stack[page.depth - 1] = row!.id;
      ids.push(row!.id);
    }
    const renumbered = await renumberPages(tx, actor.projectId);
    await monitoringAudit(
      tx,
      actor,
      'pages_imported',
      { type: 'project', id: actor.projectId },
      {
        parent_id: parentId,
        created: ids,
        file_name: fileName.slice(0, 200),
        renumbered: describeChanges(renumbered.filter((change) => !ids.includes(change.id))),
      },
      now,
    );
    return ids.length;
  });
}
