import { eq, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '../db/client.js';
import { emailLog } from '../db/schema/index.js';
import { type Clock, systemClock } from './clock.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  template: string;
  projectId?: number | null;
  /** When the request that sends it happened (the app clock's time); the log entry's time. Default: the mailer's clock. */
  at?: Date;
}

export interface Mailer {
  /** Records the message in the email log, then sends it (or only logs it when no SMTP server is configured). */
  send(mail: OutgoingMail): Promise<void>;
  /**
   * Sends a logged message again (a superadmin's resend of a failed one); the log entry records the outcome, `at`
   * (the app clock's time) its sending time.
   */
  resend(logId: number, at?: Date): Promise<void>;
}

export function createMailer(options: {
  db: Database;
  smtpUrl?: string;
  from: string;
  log?: (msg: string) => void;
  /** The app clock: the time of a log entry and of its sending when the caller gives none. */
  clock?: Clock;
}): Mailer {
  const clock = options.clock ?? systemClock;
  const transport: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl, { from: options.from })
    : undefined;
  async function deliver(id: number, mail: { to: string; subject: string; text: string }, at: Date) {
    try {
      await transport!.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      await options.db
        .update(emailLog)
        .set({ status: 'sent', sentAt: at, error: null, attempts: sql`${emailLog.attempts} + 1` })
        .where(eq(emailLog.id, id));
    } catch (error) {
      await options.db
        .update(emailLog)
        .set({
          status: 'failed',
          error: (error as Error).message.slice(0, 500),
          attempts: sql`${emailLog.attempts} + 1`,
        })
        .where(eq(emailLog.id, id));
      throw error;
    }
  }

  return {
    async send(mail) {
      const at = mail.at ?? clock.now();
      const [entry] = await options.db
        .insert(emailLog)
        .values({
          toAddress: mail.to,
          subject: mail.subject,
          template: mail.template,
          bodyText: mail.text,
          projectId: mail.projectId ?? null,
          status: transport ? 'queued' : 'logged',
          createdAt: at,
        })
        .returning({ id: emailLog.id });
      if (!transport) {
        options.log?.(`No SMTP_URL: email "${mail.subject}" recorded in the email log, not sent`);
        return;
      }
      await deliver(entry!.id, mail, at);
    },
    async resend(logId, at) {
      const [entry] = await options.db.select().from(emailLog).where(eq(emailLog.id, logId));
      if (!entry) throw new Error(`No email log entry ${logId}`);
      if (!transport) {
        options.log?.(`No SMTP_URL: email "${entry.subject}" recorded in the email log, not sent`);
        await options.db.update(emailLog).set({ status: 'logged', error: null }).where(eq(emailLog.id, logId));
        return;
      }
      await deliver(logId, { to: entry.toAddress, subject: entry.subject, text: entry.bodyText }, at ?? clock.now());
    },
  };
}
