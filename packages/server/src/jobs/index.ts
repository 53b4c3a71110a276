import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Database } from '../db/client.js';
import { sealAuditChain } from '../lib/audit-chain.js';
import type { Clock } from '../lib/clock.js';
import type { Mailer } from '../lib/mailer.js';
import {
  onFileTextQueued,
  unsafeQueueMissingFileTexts,
  unsafeReadQueuedFileTexts,
} from '../modules/policies/file-text.service.js';
import { unsafeReopenExpiredEvidence } from '../modules/standards/evidence.service.js';
import { unsafeCloseSustainedFindings } from '../modules/standards/findings.service.js';
import { unsafeCloseMetFindings } from './chart-review-plans.js';
import { unsafePurgeExpiredEncounterRefs } from './chart-review-retention.js';
import { purgeExpiredMonitoringRows } from './monitoring-retention.js';
import { unsafeSendReviewReminders } from './review-reminders.js';

/** Queue of the daily periodic-review reminders. */
export const REVIEW_REMINDERS = 'policy-review-reminders';
/** Every day at 06:00 UTC. */
export const REVIEW_REMINDERS_CRON = '0 6 * * *';
/** Queue of the daily purge of patient-level monitoring rows past their retention (decision record 010). */
export const MONITORING_RETENTION = 'monitoring-retention';
/** Every day at 03:00 UTC. */
export const MONITORING_RETENTION_CRON = '0 3 * * *';
/** Queue of the daily purge of chart review encounter references past the project's retention. */
export const CHART_REVIEW_RETENTION = 'chart-review-retention';
/** Every day at 03:30 UTC. */
export const CHART_REVIEW_RETENTION_CRON = '30 3 * * *';
/** Queue of the daily automatic closing of chart review findings whose plan is done and succeeded. */
export const CHART_REVIEW_PLANS = 'chart-review-plans';
/** Every day at 04:00 UTC. */
export const CHART_REVIEW_PLANS_CRON = '0 4 * * *';
/** Queue of the daily automatic closing of standards findings whose actions are done and measure sustained. */
export const STANDARDS_FINDINGS = 'standards-findings';
/** Every day at 04:15 UTC. */
export const STANDARDS_FINDINGS_CRON = '15 4 * * *';
/** Queue of the daily check of standards evidence: done elements whose evidence expired go back to in review. */
export const STANDARDS_EVIDENCE = 'standards-evidence';
/** Every day at 04:30 UTC. */
export const STANDARDS_EVIDENCE_CRON = '30 4 * * *';

/** Queue of the daily backfill: every policy PDF without its text read yet is queued for FILE_TEXTS. */
export const FILE_TEXT_BACKFILL = 'policy-file-text-backfill';
/** Every day at 04:45 UTC. */
export const FILE_TEXT_BACKFILL_CRON = '45 4 * * *';

const DAILY_QUEUES = [
  REVIEW_REMINDERS,
  MONITORING_RETENTION,
  CHART_REVIEW_RETENTION,
  CHART_REVIEW_PLANS,
  STANDARDS_FINDINGS,
  STANDARDS_EVIDENCE,
  FILE_TEXT_BACKFILL,
];

/** Queue of the sealing of new audit events into the hash chain (lib/audit-chain.ts). */
export const AUDIT_CHAIN = 'audit-chain';
/** Every minute. */
export const AUDIT_CHAIN_CRON = '* * * * *';
/**
 * Queue of the reading of uploaded PDFs' text (modules/policies/file-text.service.ts): sent after each upload, and
 * every minute, which also picks up a reading that died half-way and a failed one due another try.
 */
export const FILE_TEXTS = 'policy-file-texts';
/** Every minute. */
export const FILE_TEXTS_CRON = '* * * * *';
/** Files read per job: a run stays well inside the queue's one-hour expiry (each file stops after 2 minutes). */
const FILE_TEXTS_PER_RUN = 20;

export interface Jobs {
  boss: PgBoss;
  stop(): Promise<void>;
}

/**
 * Background jobs on pg-boss, in the portal's own PostgreSQL (schema `pgboss`): nothing else to run, jobs survive
 * restarts, and with several server instances each job runs once. Each daily job also runs once at start-up (the
 * reminders are sent at most weekly per policy, the purges and closings find nothing the second time).
 */
export async function startJobs(options: {
  pool: pg.Pool;
  db: Database;
  mailer: Mailer;
  clock: Clock;
  log: { error(obj: unknown, msg?: string): void };
}): Promise<Jobs> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => options.pool.query(text, values) },
    schema: 'pgboss',
  });
  boss.on('error', (error) => options.log.error({ err: error }, 'Background jobs error'));
  await boss.start();
  await boss.createQueue(REVIEW_REMINDERS);
  await boss.schedule(REVIEW_REMINDERS, REVIEW_REMINDERS_CRON, {}, { tz: 'UTC' });
  await boss.work(REVIEW_REMINDERS, async () => {
    await unsafeSendReviewReminders(options.db, options.mailer, options.clock.now());
  });
  await boss.createQueue(MONITORING_RETENTION);
  await boss.schedule(MONITORING_RETENTION, MONITORING_RETENTION_CRON, {}, { tz: 'UTC' });
  await boss.work(MONITORING_RETENTION, async () => {
    await purgeExpiredMonitoringRows(options.db, options.clock.now());
  });
  await boss.createQueue(CHART_REVIEW_RETENTION);
  await boss.schedule(CHART_REVIEW_RETENTION, CHART_REVIEW_RETENTION_CRON, {}, { tz: 'UTC' });
  await boss.work(CHART_REVIEW_RETENTION, async () => {
    await unsafePurgeExpiredEncounterRefs(options.db, options.clock.now());
  });
  await boss.createQueue(CHART_REVIEW_PLANS);
  await boss.schedule(CHART_REVIEW_PLANS, CHART_REVIEW_PLANS_CRON, {}, { tz: 'UTC' });
  await boss.work(CHART_REVIEW_PLANS, async () => {
    await unsafeCloseMetFindings(options.db, options.clock.now());
  });
  await boss.createQueue(STANDARDS_FINDINGS);
  await boss.schedule(STANDARDS_FINDINGS, STANDARDS_FINDINGS_CRON, {}, { tz: 'UTC' });
  await boss.work(STANDARDS_FINDINGS, async () => {
    await unsafeCloseSustainedFindings(options.db, options.clock.now());
  });
  await boss.createQueue(STANDARDS_EVIDENCE);
  await boss.schedule(STANDARDS_EVIDENCE, STANDARDS_EVIDENCE_CRON, {}, { tz: 'UTC' });
  await boss.work(STANDARDS_EVIDENCE, async () => {
    await unsafeReopenExpiredEvidence(options.db, options.clock.now());
  });
  await boss.createQueue(FILE_TEXT_BACKFILL);
  await boss.schedule(FILE_TEXT_BACKFILL, FILE_TEXT_BACKFILL_CRON, {}, { tz: 'UTC' });
  await boss.work(FILE_TEXT_BACKFILL, async () => {
    if ((await unsafeQueueMissingFileTexts(options.db, options.clock.now())) > 0) await boss.send(FILE_TEXTS, {});
  });
  // Reading is retried by the service itself (at most 3 tries per file), not by pg-boss.
  await boss.createQueue(FILE_TEXTS, { name: FILE_TEXTS, expireInSeconds: 3600, retryLimit: 0 });
  await boss.schedule(FILE_TEXTS, FILE_TEXTS_CRON, {}, { tz: 'UTC' });
  await boss.work(FILE_TEXTS, async () => {
    await unsafeReadQueuedFileTexts(options.db, options.clock.now(), { limit: FILE_TEXTS_PER_RUN });
  });
  onFileTextQueued(() => boss.send(FILE_TEXTS, {}));
  // A laptop that was off at the scheduled hour still runs each daily job once at start-up (all are safe to run
  // twice). The key names the clock's day, so several instances starting together run it once, and a server
  // started on another day (a test clock moved to day 91) runs it again.
  const startup = { singletonKey: `startup-${options.clock.now().toISOString().slice(0, 10)}`, singletonSeconds: 3600 };
  for (const queue of DAILY_QUEUES) await boss.send(queue, {}, startup);
  await boss.createQueue(AUDIT_CHAIN);
  await boss.schedule(AUDIT_CHAIN, AUDIT_CHAIN_CRON, {}, { tz: 'UTC' });
  await boss.work(AUDIT_CHAIN, async () => {
    await sealAuditChain(options.db);
  });
  return {
    boss,
    stop: () => {
      onFileTextQueued(null);
      return boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
