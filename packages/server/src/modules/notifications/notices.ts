import type { Database } from '../../db/client.js';
import type { Mailer } from '../../lib/mailer.js';
import { notify } from './notifications.service.js';

/**
 * What a change tells the people it concerns (a workflow step, a role given): a bell notification and an email each. Services collect notices
 * inside their transaction and the route sends them once it has committed, so nobody hears of a step that rolled
 * back.
 */
export interface Notice {
  userIds: number[];
  message: string;
  /** Where the notification's View link goes (a web path). */
  link: string;
  subject: string;
}

export async function sendNotices(
  db: Database,
  mailer: Mailer,
  projectId: number,
  notices: readonly Notice[],
  /** The app clock's time: the notifications' and the email log's. */
  now: Date,
  log?: (error: unknown) => void,
): Promise<void> {
  for (const notice of notices) {
    const userIds = [...new Set(notice.userIds)];
    if (!userIds.length) continue;
    // The step has committed: a mail server that is down must not turn it into an error for the user.
    await notify(db, {
      userIds,
      projectId,
      message: notice.message,
      link: notice.link,
      email: { mailer, subject: notice.subject },
      now,
    }).catch((error) => log?.(error));
  }
}

/** Notices of one project (a change that reaches several projects, e.g. a superadmin editing memberships). */
export interface ProjectNotices {
  projectId: number;
  notices: Notice[];
}
