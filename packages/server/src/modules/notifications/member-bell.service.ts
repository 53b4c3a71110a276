import type { Notification } from '@portal/shared';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { notifications, projectMemberships, projects } from '../../db/schema/index.js';
import type { SessionUser } from '../../plugins/session.js';
import { markRead, notificationById, unreadFor } from './notifications.service.js';

/**
 * The bell outside a project (the landing page /member/projects): the signed-in user's notifications across the
 * projects they can open today. Membership is read at each call, never remembered: someone removed from a project (or
 * whose project was deactivated) stops seeing its notifications at once, as projectAccess() answers 404 for the
 * project itself. Notifications about no project are the user's own and always shown. A superadmin sees every
 * project's, as at /super/notifications/.
 *
 * Each project's list comes from unreadFor(), the in-project bell's own query, so both bells agree on what is still
 * unread; the membership filter is applied before the 100-row limit, so rows of a project the user left never crowd
 * out the visible ones.
 */
const LIMIT = 100;

/** The active projects `userId` is a member of now. */
async function openProjectIds(db: DbOrTx, userId: number): Promise<Set<number>> {
  const rows = await db
    .select({ id: projects.id })
    .from(projectMemberships)
    .innerJoin(projects, eq(projects.id, projectMemberships.projectId))
    .where(and(eq(projectMemberships.userId, userId), eq(projects.isActive, true)));
  return new Set(rows.map((row) => row.id));
}

/** My unread notifications about no project (never task notices, which are always about a project). */
async function unreadWithoutProject(db: DbOrTx, userId: number): Promise<Notification[]> {
  const rows = await db
    .select({
      id: notifications.id,
      message: notifications.message,
      createdAt: notifications.createdAt,
      link: notifications.link,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.projectId), isNull(notifications.readAt)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(LIMIT);
  return rows.map((row) => ({
    id: row.id,
    message: row.message,
    read_at: null,
    created_at: row.createdAt.toISOString(),
    link: row.link,
    project_name: null,
    project_id: null,
  }));
}

/** My unread notifications across my projects, newest first (the bell's order), at most 100. */
export async function unreadAcrossProjects(db: DbOrTx, user: SessionUser): Promise<Notification[]> {
  if (user.role === 'superadmin') return unreadFor(db, user.id, null);
  const lists = [await unreadWithoutProject(db, user.id)];
  // One indexed query per project (notifications_user_unread_idx), one after the other: a member has a handful of
  // projects, and the request holds one pooled connection at a time.
  for (const projectId of await openProjectIds(db, user.id)) lists.push(await unreadFor(db, user.id, projectId));
  return lists
    .flat()
    .sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1))
    .slice(0, LIMIT);
}

/** One of my notifications if I may see it now: the live stream's check before it writes one out. */
export async function visibleNotification(
  db: DbOrTx,
  user: SessionUser,
  id: number,
): Promise<Notification | undefined> {
  const notification = await notificationById(db, user.id, id);
  if (!notification || user.role === 'superadmin' || notification.project_id === null) return notification;
  return (await openProjectIds(db, user.id)).has(notification.project_id) ? notification : undefined;
}

/**
 * Marks one of my notifications read; false (the route's 404) when it is not mine or is of a project I can no longer
 * open: the same answer as for one that does not exist.
 */
export async function markReadAcrossProjects(db: DbOrTx, user: SessionUser, id: number, now: Date): Promise<boolean> {
  const notification = await visibleNotification(db, user, id);
  return notification ? markRead(db, user.id, id, notification.project_id, now) : false;
}
