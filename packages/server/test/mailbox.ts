import type { Database } from '../src/db/client.js';
import type { Clock } from '../src/lib/clock.js';
import { createMailer, type Mailer, type OutgoingMail } from '../src/lib/mailer.js';

/**
 * The real outbox without an SMTP server (messages are logged in the email log, in the caller's transaction), keeping
 * what each message said, live links included, for tests of the flows that email. The SMTP path has its own tests.
 */
export function createMailbox(
  /** The test database, known once its hooks ran. */
  db: () => Database,
  clock: Clock,
  appKey: Buffer,
): Mailer & {
  sent: OutgoingMail[];
  resent: number[];
  last(to?: string): OutgoingMail | undefined;
} {
  const sent: OutgoingMail[] = [];
  const resent: number[] = [];
  let real: Mailer | undefined;
  const mailer = () => {
    real ??= createMailer({ db: db(), from: 'portal@example.test', appKey, clock });
    return real;
  };
  return {
    sent,
    resent,
    async queue(tx, mail) {
      await mailer().queue(tx, mail);
      sent.push(mail);
    },
    async send(mail) {
      await mailer().send(mail);
      sent.push(mail);
    },
    async resend(logId) {
      resent.push(logId);
    },
    deliverDue: async () => 0,
    startDelivery() {},
    async stopDelivery() {},
    last(to) {
      return [...sent].reverse().find((m) => !to || m.to === to);
    },
  };
}
