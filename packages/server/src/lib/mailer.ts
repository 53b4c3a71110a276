import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, lt, lte, or } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database, DbOrTx } from '../db/client.js';
import { emailLog } from '../db/schema/index.js';
import { type Clock, hours, minutes, systemClock } from './clock.js';
import { decrypt, encrypt, sha256 } from './crypto.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  template: string;
  projectId?: number | null;
  /** The CSV import of people that sends it (an invitation). */
  userImportId?: number;
  /** When the request that sends it happened (the app clock's time); the log entry's time. Default: the mailer's clock. */
  at?: Date;
}

/**
 * The outbox (decision record 025). Messages are rows of the email log written in the transaction of the change that
 * causes them; a delivery loop in every server instance sends what is due, claiming rows with SKIP LOCKED so that
 * each message is tried by one worker at a time, and retries with backoff. No request waits on SMTP.
 */
export interface Mailer {
  /** Writes the message into the outbox on `tx`: it goes out once that transaction commits, never if it rolls back. */
  queue(tx: DbOrTx, mail: OutgoingMail): Promise<void>;
  /** Queues a message that no change has to commit with (a password reset request) and wakes delivery. */
  send(mail: OutgoingMail): Promise<void>;
  /** Queues a failed message again (a superadmin's resend); `at` (the app clock's time) is when it is due. */
  resend(logId: number, at?: Date): Promise<void>;
  /** Sends every message due now, in batches; returns how many were tried. The loop calls it; tests call it too. */
  deliverDue(): Promise<number>;
  /** Starts the delivery loop (a server's main; not the API tests, which call deliverDue). */
  startDelivery(onError: (error: unknown) => void): void;
  /** Stops the loop and waits for the batch in hand. */
  stopDelivery(): Promise<void>;
}

/** Default waits before the 2nd to 6th try: about five and a half hours in all, then the message is failed. */
export const RETRY_DELAYS_MS = [minutes(1), minutes(5), minutes(15), hours(1), hours(4)];
/**
 * How long a claimed message belongs to its worker. Longer than one SMTP conversation can take (the transport's
 * timeouts below add up to 40 s), so a message is tried again only when its worker died, not while it is sending.
 */
export const CLAIM_MS = 60_000;
const POLL_MS = 1_000;
const BATCH = 20;
/** A failed message keeps its sealed link for a resend only as long as any set-password link lives (7 days). */
const SEALED_KEPT_MS = hours(24 * 8);

/** The set-password link of an invitation or reset (the token is 64 hex digits; `&email=` follows). */
const LIVE_LINK = /\S*\/reset-password\?token=([0-9a-f]+)\S*/gi;
export const LINK_MARKER = '[set-password link removed]';

/** The message as the log keeps it: every set-password link replaced by a marker, and the first token's hash. */
export function withoutLiveLinks(text: string): { text: string; tokenHash: string | null } {
  let tokenHash: string | null = null;
  const scrubbed = text.replace(LIVE_LINK, (_link, token: string) => {
    tokenHash ??= sha256(token);
    return LINK_MARKER;
  });
  return { text: scrubbed, tokenHash };
}

export function createMailer(options: {
  db: Database;
  smtpUrl?: string;
  from: string;
  /** Seals a message's live link until it is delivered. */
  appKey: Buffer;
  log?: (msg: string) => void;
  /** The app clock: the time of a log entry, of its tries and of their backoff. */
  clock?: Clock;
  /** Waits before each retry (tests use short ones); the message fails after the last. */
  retryDelaysMs?: readonly number[];
}): Mailer {
  const { db, appKey } = options;
  const clock = options.clock ?? systemClock;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const domain = options.from.match(/@([^>\s]+)/)?.[1] ?? 'portal.invalid';
  const transport: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(
        { url: options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 },
        { from: options.from },
      )
    : undefined;

  /** Claims up to BATCH due messages: queued and due, or claimed by a worker that died (its claim ran out). */
  async function claim(now: Date) {
    const due = db
      .select({ id: emailLog.id })
      .from(emailLog)
      .where(
        or(
          and(eq(emailLog.status, 'queued'), lte(emailLog.nextAttemptAt, now)),
          and(eq(emailLog.status, 'sending'), lte(emailLog.claimedUntil, now)),
        ),
      )
      .orderBy(emailLog.nextAttemptAt, emailLog.id)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    return db
      .update(emailLog)
      .set({ status: 'sending', claimedUntil: new Date(now.getTime() + CLAIM_MS) })
      .where(inArray(emailLog.id, due))
      .returning();
  }

  async function deliver(entry: typeof emailLog.$inferSelect): Promise<void> {
    const attempts = entry.attempts + 1;
    const mine = and(eq(emailLog.id, entry.id), eq(emailLog.status, 'sending'));
    try {
      await transport!.sendMail({
        from: options.from,
        to: entry.toAddress,
        subject: entry.subject,
        text: entry.sealedBody ? decrypt(entry.sealedBody, appKey) : entry.bodyText,
        messageId: entry.messageId ?? undefined,
      });
    } catch (error) {
      const retryIn = delays[attempts - 1];
      const message = (error as Error).message.slice(0, 500);
      await db
        .update(emailLog)
        .set(
          retryIn === undefined
            ? { status: 'failed', error: message, attempts, claimedUntil: null, nextAttemptAt: null }
            : {
                status: 'queued',
                error: `Try ${attempts} failed: ${message}`,
                attempts,
                claimedUntil: null,
                nextAttemptAt: new Date(clock.now().getTime() + retryIn),
              },
        )
        .where(mine);
      return;
    }
    // Sent: the sealed copy (the only one with the live link) goes.
    await db
      .update(emailLog)
      // A message sent on a later try keeps the last failure: the log shows it needed retries.
      .set({ status: 'sent', sentAt: clock.now(), attempts, claimedUntil: null, sealedBody: null })
      .where(mine);
  }

  let running: Promise<number> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let onLoopError: (error: unknown) => void = () => {};

  let purgedAt = 0;
  /** At most hourly: failed messages past any link's life lose their sealed copy (backups then hold none). */
  async function purgeSealed(now: Date) {
    if (now.getTime() - purgedAt < hours(1)) return;
    purgedAt = now.getTime();
    await db
      .update(emailLog)
      .set({ sealedBody: null })
      .where(
        and(
          isNotNull(emailLog.sealedBody),
          eq(emailLog.status, 'failed'),
          lt(emailLog.createdAt, new Date(now.getTime() - SEALED_KEPT_MS)),
        ),
      );
  }

  async function drain(): Promise<number> {
    if (!transport) return 0;
    await purgeSealed(clock.now());
    let tried = 0;
    for (;;) {
      const batch = await claim(clock.now());
      for (const entry of batch) await deliver(entry);
      tried += batch.length;
      if (batch.length < BATCH) return tried;
    }
  }

  /** One drain at a time per instance; a wake-up during a drain runs one more. */
  function deliverDue(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void deliverDue().catch(onLoopError);
      }
    });
    return running;
  }

  async function queue(tx: DbOrTx, mail: OutgoingMail) {
    const at = mail.at ?? clock.now();
    const { text, tokenHash } = withoutLiveLinks(mail.text);
    await tx.insert(emailLog).values({
      toAddress: mail.to,
      subject: mail.subject,
      template: mail.template,
      bodyText: text,
      projectId: mail.projectId ?? null,
      userImportId: mail.userImportId ?? null,
      status: transport ? 'queued' : 'logged',
      createdAt: at,
      nextAttemptAt: transport ? at : null,
      sealedBody: transport && text !== mail.text ? encrypt(mail.text, appKey) : null,
      linkTokenHash: tokenHash,
      messageId: `<${randomUUID()}@${domain}>`,
    });
    if (!transport) options.log?.(`No SMTP_URL: email "${mail.subject}" recorded in the email log, not sent`);
  }

  return {
    queue,
    async send(mail) {
      await queue(db, mail);
      if (timer) void deliverDue().catch(onLoopError);
    },
    async resend(logId, at) {
      const [entry] = await db.select().from(emailLog).where(eq(emailLog.id, logId));
      if (!entry) throw new Error(`No email log entry ${logId}`);
      if (!transport) {
        options.log?.(`No SMTP_URL: email "${entry.subject}" recorded in the email log, not sent`);
        await db.update(emailLog).set({ status: 'logged', error: null }).where(eq(emailLog.id, logId));
        return;
      }
      await db
        .update(emailLog)
        .set({ status: 'queued', error: null, nextAttemptAt: at ?? clock.now(), claimedUntil: null })
        .where(and(eq(emailLog.id, logId), eq(emailLog.status, 'failed')));
      if (timer) void deliverDue().catch(onLoopError);
    },
    deliverDue,
    startDelivery(onError) {
      if (!transport || timer) return;
      onLoopError = onError;
      timer = setInterval(() => void deliverDue().catch(onError), POLL_MS);
      void deliverDue().catch(onError);
    },
    async stopDelivery() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}
