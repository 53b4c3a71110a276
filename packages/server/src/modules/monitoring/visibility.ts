import { inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { monMeasures, monPages } from '../../db/schema/index.js';
import { appViewerOf, type Viewer } from '../../policies/app-access.js';
import type { MonitoringActor } from '../../policies/monitoring.js';
import { effectivePageAccess } from './page-access.js';

/**
 * What of monitoring a person may see, for every module that lists, links, counts, searches, prints or names its
 * pages and measures (decision record 021). One rule: a page is visible when monitoring itself would open it for them
 * (page-access.ts: restricted branches, drafts for viewers); a measure when its page is. Someone without a monitoring
 * role sees what a viewer does, so a restricted page's title, its measures' names and values reach nobody without a grant.
 */

/** The ids of the live pages the actor may open. */
export async function visiblePageIds(db: DbOrTx, actor: MonitoringActor): Promise<number[]> {
  const access = await effectivePageAccess(db, actor);
  return [...access].filter(([, level]) => level !== 'none').map(([id]) => id);
}

/**
 * The same for any person, resolved as monitoring knows them (none while monitoring is off for the project). Another
 * app's actor is only a viewer here: its role is that app's, never a monitoring role.
 */
export async function pagesVisibleTo(db: DbOrTx, viewer: Viewer): Promise<number[]> {
  const actor = await appViewerOf(db, 'monitoring', viewer);
  return actor ? visiblePageIds(db, actor) : [];
}

const within = (column: typeof monPages.id | typeof monMeasures.pageId, ids: readonly number[]): SQL =>
  ids.length === 0 ? sql`false` : inArray(column, [...ids]);

/** A condition on `mon_pages`: the pages the viewer may see. */
export async function visiblePages(db: DbOrTx, viewer: Viewer): Promise<SQL> {
  return within(monPages.id, await pagesVisibleTo(db, viewer));
}

/** A condition on `mon_measures`: the measures on pages the viewer may see. */
export async function visibleMeasures(db: DbOrTx, viewer: Viewer): Promise<SQL> {
  return within(monMeasures.pageId, await pagesVisibleTo(db, viewer));
}
