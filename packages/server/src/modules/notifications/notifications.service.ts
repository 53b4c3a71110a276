import type { Notification } from '@portal/shared';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { prepared } from '../../db/prepared.js';
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

/** A notice that asks for a task: marked done once the task is (policies/tasks: "waits for your review"). */
export interface NoticeTask {
  kind: 'policy_review' | 'policy_signature' | 'policy_reading';
  /** The record the task is about (a policy version). */
  ref: number;
}

/**
 * Notifies users on `db`, which is the transaction of the change that causes it (the outbox, decision record 025): a
 * row per user and a PostgreSQL NOTIFY per row (delivered on commit, so every server instance pushes it to that
 * user's open streams), and with `email` a message per user queued in the email log. All of it commits with the
 * change or not at all. `now` is the app clock's time: the notification's (and the email's) time.
 */
export async function notify(
  db: DbOrTx,
  input: {
    userIds: number[];
    projectId: number | null;
    message: string;
    link?: string | null;
    email?: { mailer: Mailer; subject: string };
    task?: NoticeTask;
    now: Date;
  },
): Promise<number[]> {
  const userIds = [...new Set(input.userIds)];
  if (!userIds.length) return [];
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(notifications)
      .values(
        userIds.map((userId) => ({
          userId,
          projectId: input.projectId,
          message: input.message,
          link: input.link ?? null,
          createdAt: input.now,
          taskKind: input.task?.kind ?? null,
          taskRef: input.task?.ref ?? null,
        })),
      )
      .returning({ id: notifications.id, userId: notifications.userId });
    for (const row of rows) {
      await tx.execute(
        sql`select pg_notify(${NOTIFY_CHANNEL}, ${JSON.stringify({ user_id: row.userId, id: row.id })})`,
      );
    }
    if (input.email) {
      const recipients = await tx.select({ email: users.email }).from(users).where(inArray(users.id, userIds));
      for (const { email } of recipients) {
        await input.email.mailer.queue(tx, {
          to: email,
          subject: input.email.subject,
          text: input.message,
          template: 'notification',
          projectId: input.projectId,
          at: input.now,
        });
      }
    }
    return rows.map((r) => r.id);
  });
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
  const rows =
    projectId === null
      ? await unreadOf(db, eq(notifications.userId, userId))
      : // The bell of every page asks this: a named statement.
        await prepared(db, 'portal_unread_notifications', (handle, name) =>
          unreadOf(
            handle,
            and(
              eq(notifications.userId, sql.placeholder('userId')),
              eq(notifications.projectId, sql.placeholder('projectId')),
            ),
          ).prepare(name),
        ).execute({ userId, projectId });
  return rows.map(present);
}

/** The newest 100 unread notifications `whose` selects. */
function unreadOf(db: DbOrTx, whose: SQL | undefined) {
  return db
    .select(columns)
    .from(notifications)
    .leftJoin(projects, eq(projects.id, notifications.projectId))
    .where(and(whose, isNull(notifications.readAt), isNull(notifications.doneAt)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(100);
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
