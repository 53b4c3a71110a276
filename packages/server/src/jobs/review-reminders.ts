import { documentName, REVIEW_DUE_SOON_DAYS, REVIEW_REMINDER_EVERY_DAYS } from '@portal/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { recordAudit } from '../lib/audit.js';
import type { Mailer } from '../lib/mailer.js';
import { queueNotices } from '../modules/notifications/notices.js';
import { documentLink } from '../modules/policies/documents.service.js';

interface DueRow extends Record<string, unknown> {
  id: number;
  project_id: number;
  number: string | null;
  title: string;
  next_review_on: string;
  days: number;
  recipients: number[];
}

/**
 * The daily reminder of periodic reviews (decision record 007): each owner of a published policy whose review is due
 * within 30 days or overdue hears of it by bell and email, at most once a week per policy; a policy without an owner
 * who is still a member goes to the project's policy administrators. Reads every project at once on purpose: it is
 * the installation's job, and each notice stays within its own project.
 */
export async function unsafeSendReviewReminders(db: Database, mailer: Mailer, now: Date): Promise<number> {
  const today = now.toISOString().slice(0, 10);
  const since = new Date(now.getTime() - REVIEW_REMINDER_EVERY_DAYS * 86_400_000);
  const due = sql`d.status = 'published' and d.next_review_on is not null
    and d.next_review_on <= ${today}::date + ${REVIEW_DUE_SOON_DAYS}::int
    and (d.review_reminded_at is null or d.review_reminded_at <= ${since.toISOString()})`;
  const { rows } = await db.execute<DueRow>(sql`
    select d.id, d.project_id, d.number, d.title, to_char(d.next_review_on, 'YYYY-MM-DD') as next_review_on,
           (d.next_review_on - ${today}::date)::int as days,
           coalesce(
             (select array[m.user_id] from project_memberships m where m.project_id = d.project_id and m.user_id = d.owner_id),
             (select array_agg(r.user_id) from project_member_roles r
               where r.project_id = d.project_id and r.app = 'policy_management' and r.main_role = 'policy_admin'),
             '{}'
           ) as recipients
    from policy_documents d
    join projects p on p.id = d.project_id
    where p.is_active and 'policy_management' = any(p.active_apps) and ${due}
    order by d.project_id, d.next_review_on, d.id`);
  let sent = 0;
  for (const row of rows) {
    const name = documentName(row);
    const days = Number(row.days);
    const message =
      days < 0
        ? `The periodic review of "${name}" is overdue: it was due on ${row.next_review_on}. Review it and start a new version, or confirm it is still right.`
        : `The periodic review of "${name}" is due on ${row.next_review_on} (in ${days === 1 ? '1 day' : `${days} days`}).`;
    // Claimed and told in one transaction: with several server instances only one sends it, and a crash loses neither.
    const claimed = await db.transaction(async (tx) => {
      const { rows: updated } = await tx.execute(sql`
        update policy_documents d set review_reminded_at = ${now.toISOString()}
        where d.project_id = ${row.project_id} and d.id = ${row.id} and ${due} returning d.id`);
      if (!updated.length) return false;
      await recordAudit(tx, {
        action: 'policy.review_reminder_sent',
        projectId: row.project_id,
        subjectType: 'policy_document',
        subjectId: row.id,
        data: { next_review_on: row.next_review_on, recipients: row.recipients },
        at: now,
      });
      const notice = {
        userIds: row.recipients,
        message,
        link: documentLink(row.project_id, row.id),
        subject: `${days < 0 ? 'Overdue policy review' : 'Policy review due'}: ${name}`,
      };
      await queueNotices(tx, mailer, row.project_id, [notice], now);
      return true;
    });
    if (!claimed || !row.recipients.length) continue;
    sent += 1;
  }
  return sent;
}
