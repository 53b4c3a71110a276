import type { Notification } from '@portal/shared';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { notifications, projects, users } from '../../db/schema/index.js';
import type { Mailer } from '../../lib/mailer.js';

export const NOTIFY_CHANNEL = 'portal_notifications';

/**
 * Tells every server instance that `userId`'s sessions were ended (an account disabled, a directory deprovisioning
 * the person): their open notification streams check their session at once and end, instead of at the next heartbeat.
 * Sent with the transaction that deletes the sessions (NOTIFY is delivered on commit).
 */
export async function signalSessionsEnded(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(
    sql`select pg_notify(${NOTIFY_CHANNEL}, ${JSON.stringify({ user_id: userId, sessions_ended: true })})`,
  );
}

/**
 * Notifies users, in one transaction: a row per user, and a PostgreSQL NOTIFY per row (delivered on commit) so every
 * server instance pushes it to that user's open streams. With `email`, each user is also emailed (after commit).
 * `now` is the app clock's time: the notification's (and the email log entry's) time.
 */
export async function notify(
  db: Database,
  input: {
    userIds: number[];
    projectId: number | null;
    message: string;
    link?: string | null;
    email?: { mailer: Mailer; subject: string };
    now: Date;
  },
): Promise<number[]> {
  if (!input.userIds.length) return [];
  const created = await db.transaction(async (tx) => {
    const rows = await tx
      .insert(notifications)
      .values(
        input.userIds.map((userId) => ({
          userId,
          projectId: input.projectId,
          message: input.message,
          link: input.link ?? null,
          createdAt: input.now,
        })),
      )
      .returning({ id: notifications.id, userId: notifications.userId });
    for (const row of rows) {
      await tx.execute(
        sql`select pg_notify(${NOTIFY_CHANNEL}, ${JSON.stringify({ user_id: row.userId, id: row.id })})`,
      );
    }
    return rows;
  });
  if (input.email) {
    const recipients = await db.select({ email: users.email }).from(users).where(sql`${users.id} in ${input.userIds}`);
    for (const { email } of recipients) {
      await input.email.mailer.send({
        to: email,
        subject: input.email.subject,
        text: input.message,
        template: 'notification',
        projectId: input.projectId,
        at: input.now,
      });
    }
  }
  return created.map((r) => r.id);
}

const columns = {
  id: notifications.id,
  message: notifications.message,
  readAt: notifications.readAt,
  createdAt: notifications.createdAt,
  link: notifications.link,
  projectName: projects.name,
  projectId: notifications.projectId,
};

function present(row: {
  id: number;
  message: string;
  readAt: Date | null;
  createdAt: Date;
  link: string | null;
  projectName: string | null;
  projectId: number | null;
}): Notification {
  return {
    id: row.id,
    message: row.message,
    read_at: row.readAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    link: row.link,
    project_name: row.projectName,
    project_id: row.projectId,
  };
}

/** The user's unread notifications: of one project, or of every project when `projectId` is null (superadmin). */
export async function unreadFor(db: DbOrTx, userId: number, projectId: number | null): Promise<Notification[]> {
  const rows = await db
    .select(columns)
    .from(notifications)
    .leftJoin(projects, eq(projects.id, notifications.projectId))
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        projectId === null ? undefined : eq(notifications.projectId, projectId),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(100);
  return rows.map(present);
}

export async function notificationById(db: DbOrTx, userId: number, id: number): Promise<Notification | undefined> {
  const [row] = await db
    .select(columns)
    .from(notifications)
    .leftJoin(projects, eq(projects.id, notifications.projectId))
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  return row ? present(row) : undefined;
}

/** Marks one of the user's notifications read; false when it is not theirs (or not in that project). */
export async function markRead(
  db: DbOrTx,
  userId: number,
  id: number,
  projectId: number | null,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.id, id),
        eq(notifications.userId, userId),
        projectId === null ? undefined : eq(notifications.projectId, projectId),
      ),
    )
    .returning({ id: notifications.id });
  return updated.length === 1;
}
