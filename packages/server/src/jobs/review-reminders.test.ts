import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createProject } from '../../test/factories.js';
import { policyProject, publishDraft } from '../../test/policy-kit.js';
import { auditEvents, notifications, policyDocuments, policyVersions } from '../db/schema/index.js';
import {
  AUDIT_CHAIN,
  CHART_REVIEW_PLANS,
  CHART_REVIEW_RETENTION,
  FILE_TEXT_BACKFILL,
  FILE_TEXTS,
  MONITORING_RETENTION,
  REVIEW_REMINDERS,
  STANDARDS_EVIDENCE,
  STANDARDS_FINDINGS,
  startJobs,
} from './index.js';
import { unsafeSendReviewReminders } from './review-reminders.js';

describe('periodic review reminders', () => {
  const ctx = useTestApp();
  const db = () => ctx.db.handle.db;

  async function publishedPolicy(projectId: number, title: string, ownerId: number | null, nextReviewOn: string) {
    const [doc] = await db()
      .insert(policyDocuments)
      .values({ projectId, title, ownerId, status: 'draft', nextReviewOn })
      .returning();
    const [version] = await db()
      .insert(policyVersions)
      .values({ projectId, documentId: doc!.id, version: 1, content: `<p>${title}</p>` })
      .returning();
    await db().update(policyDocuments).set({ draftVersionId: version!.id }).where(eq(policyDocuments.id, doc!.id));
    await publishDraft(db(), doc!.id);
    await db().update(policyDocuments).set({ nextReviewOn }).where(eq(policyDocuments.id, doc!.id));
    return doc!;
  }

  it('reminds owners of due and overdue reviews by bell and email, at most once a week', async () => {
    const s = await policyProject(db());
    const now = new Date('2026-06-01T06:00:00Z');
    const overdue = await publishedPolicy(s.project.id, 'Overdue', s.people.author.id, '2026-05-20');
    const soon = await publishedPolicy(s.project.id, 'Soon', s.people.author.id, '2026-06-20');
    await publishedPolicy(s.project.id, 'Later', s.people.author.id, '2026-08-01');
    // No owner: the project's policy administrators hear of it.
    const orphan = await publishedPolicy(s.project.id, 'Orphan', null, '2026-06-02');
    // A project with policy management off is left alone.
    const off = await createProject(db(), { activeApps: [] });
    await publishedPolicy(off.id, 'Elsewhere', null, '2026-05-01');

    expect(await unsafeSendReviewReminders(db(), ctx.mailbox, now)).toBe(3);
    const mine = await db().select().from(notifications).where(eq(notifications.userId, s.people.author.id));
    expect(mine.map((n) => n.message).sort()).toEqual([
      'The periodic review of "Overdue" is overdue: it was due on 2026-05-20. Review it and start a new version, or confirm it is still right.',
      'The periodic review of "Soon" is due on 2026-06-20 (in 19 days).',
    ]);
    expect(mine.every((n) => n.link?.startsWith(`/app/policy_management/${s.project.id}/documents/`))).toBe(true);
    expect(
      ctx.mailbox.sent
        .filter((m) => m.to === s.people.author.email)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(['Overdue policy review: Overdue', 'Policy review due: Soon']);
    const admins = await db().select().from(notifications).where(eq(notifications.userId, s.people.admin.id));
    expect(admins.map((n) => n.message)).toEqual(['The periodic review of "Orphan" is due on 2026-06-02 (in 1 day).']);
    const audits = await db().select().from(auditEvents).where(eq(auditEvents.action, 'policy.review_reminder_sent'));
    expect(audits.map((a) => a.subjectId).sort()).toEqual([overdue.id, soon.id, orphan.id].map(String).sort());

    // The next day: nothing again; a week later: the ones still due.
    expect(await unsafeSendReviewReminders(db(), ctx.mailbox, new Date('2026-06-02T06:00:00Z'))).toBe(0);
    expect(await unsafeSendReviewReminders(db(), ctx.mailbox, new Date('2026-06-08T06:00:00Z'))).toBe(3);
  });

  it('schedules the daily job on pg-boss and runs it once at start-up', async () => {
    const s = await policyProject(db());
    const today = ctx.clock.now().toISOString().slice(0, 10);
    await publishedPolicy(s.project.id, 'Due today', s.people.author.id, today);
    const errors: unknown[] = [];
    const jobs = await startJobs({
      pool: ctx.db.handle.pool,
      db: db(),
      mailer: ctx.mailbox,
      clock: ctx.clock,
      log: { error: (obj) => errors.push(obj) },
    });
    try {
      const schedules = await jobs.boss.getSchedules();
      expect(
        schedules
          .map((x) => [x.name, x.cron, (x as { timezone?: string }).timezone])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ).toEqual([
        [AUDIT_CHAIN, '* * * * *', 'UTC'],
        [CHART_REVIEW_PLANS, '0 4 * * *', 'UTC'],
        [CHART_REVIEW_RETENTION, '30 3 * * *', 'UTC'],
        [MONITORING_RETENTION, '0 3 * * *', 'UTC'],
        [FILE_TEXT_BACKFILL, '45 4 * * *', 'UTC'],
        [FILE_TEXTS, '* * * * *', 'UTC'],
        [REVIEW_REMINDERS, '0 6 * * *', 'UTC'],
        [STANDARDS_EVIDENCE, '30 4 * * *', 'UTC'],
        [STANDARDS_FINDINGS, '15 4 * * *', 'UTC'],
      ]);
      // The start-up run reaches the owner (pg-boss polls every 2 s by default).
      await expect
        .poll(
          async () =>
            (await db().select().from(notifications).where(eq(notifications.userId, s.people.author.id))).length,
          {
            timeout: 15_000,
            interval: 250,
          },
        )
        .toBe(1);
    } finally {
      await jobs.stop();
    }
    expect(errors).toEqual([]);
  });
});
