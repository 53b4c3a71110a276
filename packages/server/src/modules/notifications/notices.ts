import type { Database, DbOrTx } from '../../db/client.js';
import type { Mailer } from '../../lib/mailer.js';
import { type NoticeTask, notify } from './notifications.service.js';

/**
 * What a change tells the people it concerns (a workflow step, a role given): a bell notification and an email each.
 * Services collect notices inside their transaction and queue them in that same transaction (queueNotices): nobody
 * hears of a step that rolled back, and no committed step goes unannounced (decision record 025).
 */
export interface Notice {
  userIds: number[];
  message: string;
  /** Where the notification's View link goes (a web path). */
  link: string;
  subject: string;
  /** A notice that asks for a task is marked done once the task is (policies/tasks.ts). */
  task?: NoticeTask;
}

/** Writes the notices, and their emails into the outbox, on `tx`: the transaction of the change that causes them. */
export async function queueNotices(
  tx: DbOrTx,
  mailer: Mailer,
  projectId: number,
  notices: readonly Notice[],
  /** The app clock's time: the notifications' and the email log's. */
  now: Date,
): Promise<void> {
  for (const notice of notices) {
    await notify(tx, {
      userIds: notice.userIds,
      projectId,
      message: notice.message,
      link: notice.link,
      email: { mailer, subject: notice.subject },
      ...(notice.task ? { task: notice.task } : {}),
      now,
    });
  }
}

/** Notices of one project (a change that reaches several projects, e.g. a superadmin editing memberships). */
export interface ProjectNotices {
  projectId: number;
  notices: Notice[];
}

/**
 * Runs a change that collects notices, and queues them, in one transaction (a transaction the change opens itself
 * becomes a savepoint inside it).
 */
export function withNotices<T>(
  db: Database,
  mailer: Mailer,
  projectId: number,
  now: Date,
  change: (tx: DbOrTx, notices: Notice[]) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const notices: Notice[] = [];
    const result = await change(tx, notices);
    await queueNotices(tx, mailer, projectId, notices, now);
    return result;
  });
}

/** withNotices for a change that reaches several projects. */
export function withProjectNotices<T>(
  db: Database,
  mailer: Mailer,
  now: Date,
  change: (tx: DbOrTx, notices: ProjectNotices[]) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const notices: ProjectNotices[] = [];
    const result = await change(tx, notices);
    for (const project of notices) await queueNotices(tx, mailer, project.projectId, project.notices, now);
    return result;
  });
}
